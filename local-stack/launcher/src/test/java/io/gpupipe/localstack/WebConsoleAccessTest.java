package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.JobJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console is local and scoped: a stack started with {@code --require-token} (no workers, so every job stays
 * queued and listed) answers every console call without a valid token with 401, lists and shows a caller only its
 * own jobs, and refuses any request whose {@code Host} is not this machine's name for the port (DNS rebinding). Its
 * page, in headless Chromium, asks for a token and then submits and lists as that caller.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebConsoleAccessTest {
    private LocalStack stack;
    private ApiClient anonymous;
    private ApiClient callerA;
    private ApiClient callerB;
    private String tokenA;

    @BeforeAll
    void start() throws IOException {
        RequiredPackages.assertBuilt();
        LaunchOptions options = LaunchOptions.defaults(TestPaths.repo(), Files.createTempDirectory("gpupipe-access-"))
                .withFreePorts().withWorkers(Set.of()).withRequireToken(true);
        stack = StackAssembler.start(options, Console.system());
        anonymous = new ApiClient(stack.apiUri());
        tokenA = stack.callers().token(LocalCallers.CALLER_A);
        callerA = anonymous.as(tokenA);
        callerB = anonymous.as(stack.callers().token(LocalCallers.CALLER_B));
    }

    @AfterAll
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void everyConsoleApiPath_shouldAnswer401_withoutAValidToken() {
        String someJob = "/console/api/jobs/" + UUID.randomUUID();
        List<String> reads = List.of("/console/api/config", "/console/api/jobs", someJob, "/console/api/queues",
                "/console/api/scaling", "/console/api/usage");
        ApiClient forged = anonymous.as(tokenA.substring(0, tokenA.length() - 4) + "AAAA");
        for (ApiClient client : List.of(anonymous, forged)) {
            for (String path : reads) {
                assertUnauthorized(client.get(path), "GET " + path);
            }
            assertUnauthorized(client.post("/console/api/dlq/redrive", "{\"destination\":\"x\"}"),
                    "POST /console/api/dlq/redrive");
        }
        // the page itself holds no caller's data: it loads, and asks for the token
        assertThat(rawGet("/console", "localhost:" + stack.apiUri().getPort(), null)).startsWith("HTTP/1.1 200");
        assertThat(callerA.get("/console/api/config").status()).isEqualTo(200);
    }

    @Test
    void callerB_shouldListNoneOfAsJobs_andSeeNoneOfThemById() {
        // given: two jobs of A and one of B, all queued (no worker runs)
        List<String> ofA = List.of(submit(callerA, "A's first secret"), submit(callerA, "A's second secret"));
        String ofB = submit(callerB, "B's own prompt");

        // when
        JsonNode listedForB = callerB.get("/console/api/jobs").body();
        JsonNode listedForA = callerA.get("/console/api/jobs").body();

        // then: each sees its own, never the other's
        assertThat(ids(listedForB)).contains(ofB).doesNotContainAnyElementsOf(ofA);
        assertThat(listedForB.toString()).doesNotContain("A's first secret").doesNotContain("A's second secret");
        assertThat(ids(listedForA)).containsAll(ofA).doesNotContain(ofB);
        // and B naming A's job sees nothing of it, as for an id nobody used
        JsonNode aJobForB = callerB.get("/console/api/jobs/" + ofA.get(0)).body();
        assertThat(aJobForB.path("seen").asBoolean()).as(aJobForB.toString()).isFalse();
        assertThat(aJobForB.has("request")).as(aJobForB.toString()).isFalse();
        assertThat(aJobForB.toString()).doesNotContain("secret");
        JsonNode aJobForA = callerA.get("/console/api/jobs/" + ofA.get(0)).body();
        assertThat(aJobForA.path("seen").asBoolean()).as(aJobForA.toString()).isTrue();
        assertThat(aJobForA.path("request").path("prompt").asText()).isEqualTo("A's first secret");
    }

    @Test
    void requestNamingAnotherHost_shouldBeRefused_whileEachLocalNameIsServed() {
        int port = stack.apiUri().getPort();
        for (String path : List.of("/console/api/jobs", "/console")) {
            for (String host : List.of("evil.example", "evil.example:" + port, "127.0.0.1.evil.example:" + port,
                    "localhost:" + (port + 1))) {
                String answer = rawGet(path, host, tokenA);
                assertThat(answer).as(host + " " + path).startsWith("HTTP/1.1 421");
                JsonNode body = JobJson.read(answer.substring(answer.indexOf("\r\n\r\n") + 4), JsonNode.class);
                assertThat(body.path("errors").path(0).path("field").asText()).isEqualTo("Host");
            }
        }
        for (String host : List.of("localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port)) {
            assertThat(rawGet("/console/api/jobs", host, tokenA)).as(host).startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void consolePort_shouldNotBeReachable_onAnyAddressButLoopback() throws SocketException {
        Optional<InetAddress> external = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(n -> Collections.list(n.getInetAddresses()).stream())
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress()).findFirst();
        assumeTrue(external.isPresent(), "skipped: this machine has no address but loopback");
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(external.get(), stack.apiUri().getPort()), 2000);
            throw new AssertionError("the console's port answered on " + external.get());
        } catch (ConnectException expected) {
            // refused: nothing listens there
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void page_shouldAskForAToken_thenSubmitWithIt_andListThatCallersJobsOnly() {
        assumeTrue(HeadlessChromium.installed(), HeadlessChromium.missing());
        // given: a job of A
        String ofA = submit(callerA, "A's job the page of B must not list");
        try (HeadlessChromium browser = HeadlessChromium.start()) {
            ChromeDriver driver = browser.driver();
            // when B opens the console, it asks for a token first
            driver.get(stack.consoleUri().orElseThrow() + "#/jobs");
            await(driver, d -> d.findElement(By.id("token-form")).isDisplayed() ? true : null);
            assertThat(driver.findElement(By.id("token-outcome")).getText()).contains("--require-token");
            driver.findElement(By.id("token-input")).sendKeys(stack.callers().token(LocalCallers.CALLER_B));
            driver.findElement(By.id("token-use")).click();
            await(driver, d -> d.findElements(By.cssSelector("#f-route option")).size() > 1 ? true : null);
            // and B submits a job in its form
            WebElement prompt = driver.findElement(By.id("f-prompt"));
            prompt.clear();
            prompt.sendKeys("B's job from the page");
            driver.findElement(By.id("f-submit")).click();
            String ofB = await(driver, d -> d.findElements(By.cssSelector("#submit-outcome a")).stream().findFirst()
                    .map(WebElement::getText).orElse(null));

            // then: the submission carried B's token (202, listed for B), and A's job is not on B's page
            await(driver, d -> d.findElements(By.cssSelector("#jobs-table tr[data-request-id='" + ofB + "']")).isEmpty()
                    ? null : true);
            assertThat(ids(callerB.get("/console/api/jobs").body())).contains(ofB).doesNotContain(ofA);
            assertThat(driver.findElements(By.cssSelector("#jobs-table tr[data-request-id='" + ofA + "']"))).isEmpty();
            assertThat(driver.findElement(By.id("jobs-table")).getText()).doesNotContain("A's job");
        }
    }

    private static <T> T await(ChromeDriver driver, Function<WebDriver, T> condition) {
        // the page rebuilds its tables every 2 s: an element found just before is looked up again
        return new WebDriverWait(driver, Duration.ofSeconds(60), Duration.ofMillis(100))
                .ignoring(StaleElementReferenceException.class).until(condition::apply);
    }

    private static void assertUnauthorized(ApiClient.Reply reply, String call) {
        assertThat(reply.status()).as(call + " " + reply.body()).isEqualTo(401);
        assertThat(reply.body().path("errors").path(0).path("field").asText()).as(call).isEqualTo("Authorization");
        assertThat(reply.body().has("jobs")).isFalse();
    }

    private static String submit(ApiClient caller, String prompt) {
        String id = UUID.randomUUID().toString();
        ApiClient.Reply reply = caller.submit("{\"requestId\":\"" + id + "\",\"task\":\"generate\",\"prompt\":\""
                + prompt + "\"}");
        assertThat(reply.status()).as(reply.body().toString()).isEqualTo(202);
        return id;
    }

    private static List<String> ids(JsonNode listing) {
        List<String> ids = new ArrayList<>();
        listing.path("jobs").forEach(row -> ids.add(row.path("requestId").asText()));
        return ids;
    }

    /** One HTTP/1.1 GET with this {@code Host} header, which the JDK's client does not let a caller choose. */
    private String rawGet(String path, String host, String token) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), stack.apiUri().getPort())) {
            socket.setSoTimeout(30_000);
            String request = "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n"
                    + (token == null ? "" : "Authorization: Bearer " + token + "\r\n") + "Connection: close\r\n\r\n";
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
