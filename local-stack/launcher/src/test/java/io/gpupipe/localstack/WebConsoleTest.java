package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localstack.internal.Backend;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.worker.standin.VllmStandIn;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The web console in headless Chromium against a running stack: the speech worker on the openai backend against the
 * vLLM stand-in, whose answers to prompts containing {@link #SLOW} take seconds, so that a job stays running long
 * enough for a page refreshing every 2 s to show it. Skipped with a message where Chromium is not installed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebConsoleTest {
    private static final String SLOW = "console-slow";
    private static final Duration JOB_LIMIT = Duration.ofSeconds(120);
    /** Records every status each job row showed, so that no state shown between two looks is missed. */
    private static final String STATUS_RECORDER = """
            window.__samePage = true;
            window.__statuses = {};
            const record = () => document.querySelectorAll('#jobs-table tbody tr').forEach(tr => {
              const badge = tr.querySelector('[data-status]');
              if (!badge) return;
              const seen = window.__statuses[tr.dataset.requestId] || (window.__statuses[tr.dataset.requestId] = []);
              if (seen[seen.length - 1] !== badge.dataset.status) seen.push(badge.dataset.status);
            });
            new MutationObserver(record).observe(document.querySelector('#jobs-table tbody'),
                {childList: true, subtree: true, attributes: true});
            """;

    private VllmStandIn model;
    private LocalStack stack;
    private HeadlessChromium browser;
    private ChromeDriver driver;
    private ApiClient api;
    private Tier speech;

    @BeforeAll
    void start() throws IOException {
        assumeTrue(HeadlessChromium.installed(), HeadlessChromium.missing());
        RequiredPackages.assertBuilt();
        model = VllmStandIn.start(VllmStandIn.Settings.defaults());
        model.slow(SLOW, Duration.ofSeconds(6));
        speech = TierCatalogue.bundled().defaultTier(Task.SPEECH);
        Path dir = Files.createTempDirectory("gpupipe-console-");
        LaunchOptions options = new LaunchOptions(0, 0, 0, null, null, false, LaunchOptions.DEFAULT_TEXT_MODEL_URL,
                LaunchOptions.DEFAULT_TEXT_MODEL_SHA256, dir.resolve("cache"), Backend.OPENAI, model.url(),
                Set.of(speech), Duration.ofSeconds(3), TestPaths.repo()).withTraceFile(dir.resolve("traces.jsonl"));
        stack = StackAssembler.start(options, Console.system());
        api = new ApiClient(stack.apiUri());
        browser = HeadlessChromium.start();
        driver = browser.driver();
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.close();
        }
        if (stack != null) {
            stack.close();
        }
        if (model != null) {
            model.close();
        }
    }

    @Test
    void submittedJob_shouldGoQueuedRunningSucceededWithoutReload_andItsPageShouldPlayTheWav() throws Exception {
        // given the jobs page, recording what each row shows
        open("#/jobs");
        driver.executeScript(STATUS_RECORDER);
        String prompt = SLOW + " " + UUID.randomUUID() + ": the console speaks.";
        // when a speech job is submitted in the form
        String id = submitSpeechAndAwaitSuccess(prompt);
        // then the same page showed it queued, running, then succeeded
        assertThat(driver.executeScript("return window.__statuses[arguments[0]]", id))
                .isEqualTo(List.of("queued", "running", "succeeded"));
        assertThat(driver.executeScript("return window.__samePage")).isEqualTo(true);
        saveScreenshot("console-jobs.png");
        // when its page is opened
        await(d -> {
            d.findElement(By.cssSelector("#jobs-table tr[data-request-id='" + id + "'] a")).click();
            return true;
        }, Duration.ofSeconds(30));
        // then the audio element has a WAV it can play
        await(d -> Boolean.TRUE.equals(driver.executeScript("const a = document.getElementById('job-audio');"
                + "return a !== null && a.error === null && a.readyState >= 1 && a.duration > 0")) ? true : null,
                Duration.ofSeconds(30));
        String source = (String) driver.executeScript("return document.getElementById('job-audio').currentSrc");
        HttpResponse<byte[]> wav = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(source)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(wav.statusCode()).isEqualTo(200);
        assertThat(Wavs.parse(wav.body()).durationSeconds()).isPositive();
        // and the request, and the trace across router and worker
        assertThat(JobJson.read(text("job-request-body"), JsonNode.class)
                .path("prompt").asText()).isEqualTo(prompt);
        await(d -> d.findElement(By.id("job-trace")).getText().contains("worker job") ? true : null,
                Duration.ofSeconds(30));
        assertThat(text("job-trace")).contains("router", "gpu-worker");
    }

    @Test
    void badFields_shouldShowTheApisMessageUnderEachField() {
        // given what the API itself answers for the same job
        JsonNode refused = api.submit("{\"task\":\"generate\",\"prompt\":\"Once upon a time\",\"maxTokens\":5000,"
                + "\"temperature\":\"hot\"}").body();
        open("#/jobs");
        new Select(driver.findElement(By.id("f-kind"))).selectByValue("text");
        type("f-prompt", "Once upon a time");
        type("f-maxTokens", "5000");
        type("f-temperature", "hot");
        // when
        driver.findElement(By.id("f-submit")).click();
        // then each field shows the API's message for it
        for (String field : List.of("maxTokens", "temperature")) {
            String expected = apiMessage(refused, field);
            String shown = await(d -> d.findElements(By.cssSelector("#error-" + field + " .message")).stream()
                    .findFirst().map(WebElement::getText).orElse(null), Duration.ofSeconds(30));
            assertThat(shown).isEqualTo(expected);
        }
        assertThat(driver.findElement(By.id("submit-outcome")).getText()).contains("HTTP 400");
    }

    @Test
    void poisonMessage_shouldAppearUnderTheDlqWithItsReason_andBeRedrivenThroughAMoveTask() {
        // given a message no worker can read, straight onto the speech queue
        String tag = UUID.randomUUID().toString();
        try (SqsClient sqs = stack.aws().newSqsClient()) {
            sqs.sendMessage(b -> b.queueUrl(stack.aws().queueUrl(speech)).messageBody("poison " + tag + " <b>x</b>"));
        }
        // when
        open("#/queues");
        // then it is listed under the DLQ with the worker's reason, its body as text
        List<String> letter = await(d -> d.findElements(By.cssSelector("#dlq-table tbody tr")).stream()
                .filter(r -> r.getText().contains(tag)).findFirst()
                .map(r -> List.of(r.findElement(By.cssSelector(".reason")).getText(),
                        r.findElement(By.cssSelector(".body")).getText(),
                        Integer.toString(r.findElements(By.tagName("b")).size()))).orElse(null), JOB_LIMIT);
        assertThat(letter.get(0)).startsWith("invalid_request");
        assertThat(letter.get(1)).isEqualTo("poison " + tag + " <b>x</b>");
        assertThat(letter.get(2)).isEqualTo("0");
        // and the queues and the worker are there
        assertThat(driver.findElements(By.cssSelector("#queues-table tbody tr"))).hasSize(
                TierCatalogue.bundled().tiers().size() + 1);
        String worker = await(d -> d.findElement(By.cssSelector("#workers-table tr[data-tier='"
                + speech.wireName() + "']")).getText(), Duration.ofSeconds(30));
        assertThat(worker).contains("ready", " / ");
        // when a redrive is started
        new Select(driver.findElement(By.id("redrive-destination"))).selectByValue(
                TierCatalogue.bundled().get(speech).queue());
        driver.findElement(By.cssSelector("#redrive-form button")).click();
        // then SQS runs a move task from the DLQ to that queue
        String outcome = await(d -> {
            String text = d.findElement(By.id("redrive-outcome")).getText();
            return text.isEmpty() ? null : text;
        }, Duration.ofSeconds(30));
        assertThat(outcome).startsWith("Move task started to " + TierCatalogue.bundled().get(speech).queue());
        await(d -> d.findElements(By.cssSelector("#tasks-table tbody tr")).isEmpty() ? null : true,
                Duration.ofSeconds(30));
    }

    @Test
    void scriptInAPrompt_shouldRenderAsText_inTheListAndOnTheJobPage() {
        // given
        String prompt = "<script>window.__xss = 1</script><img src=x onerror=\"window.__xss = 2\"> "
                + UUID.randomUUID();
        open("#/jobs");
        // when
        String id = submitSpeechAndAwaitSuccess(prompt);
        // then the list shows the characters, runs nothing and builds no element from them
        String shown = await(d -> d.findElement(By.cssSelector("#jobs-table tr[data-request-id='" + id + "'] .prompt"))
                .getText(), Duration.ofSeconds(30));
        assertThat(shown).isEqualTo(prompt);
        assertThat(driver.findElements(By.cssSelector("#jobs-table img, #jobs-table script"))).isEmpty();
        // and so does the job's page
        open("#/job/" + id);
        await(d -> d.findElements(By.id("job-request-body")).isEmpty() ? null : true, Duration.ofSeconds(30));
        assertThat(JobJson.read(text("job-request-body"), JsonNode.class)
                .path("prompt").asText()).isEqualTo(prompt);
        assertThat(driver.findElements(By.cssSelector("#view-job img, #view-job script"))).isEmpty();
        assertThat(driver.executeScript("return window.__xss === undefined")).isEqualTo(true);
    }

    @Test
    void scaling_shouldChartTheDesiredTasksEachTierGetsPublished() {
        // when
        open("#/scaling");
        // then every tier has a series (the schedule runs every 3 s here)
        await(d -> d.findElements(By.cssSelector("#scaling-table tbody tr")).size()
                == TierCatalogue.bundled().tiers().size() ? true : null, Duration.ofSeconds(60));
        assertThat(driver.findElements(By.cssSelector("#scaling-chart polyline"))).hasSize(
                TierCatalogue.bundled().tiers().size());
        assertThat(text("scaling-table")).contains(speech.wireName());
    }

    @Test
    void usage_shouldShowTheMonthsJobsPerCaller_withTheEstimatesBasis() {
        // given: a speech job of the anonymous caller (the console's own submissions carry no token either)
        String id = UUID.randomUUID().toString();
        assertThat(api.submit("{\"requestId\":\"" + id + "\",\"task\":\"speech\",\"prompt\":\"Counted.\"}")
                .status()).isEqualTo(202);
        assertThat(api.awaitTerminal(id, JOB_LIMIT).path("status").asText()).isEqualTo("succeeded");

        // when
        open("#/usage");

        // then: its row counts it (records follow the result's S3 event: the page refreshes every 2 s)
        String anonymous = stack.aws().ownerIds().of(CallerIdentity.ANONYMOUS).hex();
        String row = "#usage-table tr[data-owner='" + anonymous + "'] td";
        List<String> cells = await(d -> {
            List<String> texts = d.findElements(By.cssSelector(row)).stream().map(WebElement::getText).toList();
            return texts.size() == 8 && Long.parseLong(texts.get(1)) >= 1 ? texts : null;
        }, JOB_LIMIT);
        assertThat(cells.get(0)).isEqualTo("anonymous");
        assertThat(Double.parseDouble(cells.get(5))).isPositive();
        assertThat(text("usage-basis")).contains("estimate");
    }

    private void open(String fragment) {
        driver.get(stack.consoleUri().orElseThrow() + fragment);
        driver.navigate().refresh();
        await(d -> d.findElements(By.cssSelector("#f-route option")).size() > 1 ? true : null,
                Duration.ofSeconds(30));
    }

    /** Submits a speech job in the form; its requestId, once its row shows it succeeded. */
    private String submitSpeechAndAwaitSuccess(String prompt) {
        new Select(driver.findElement(By.id("f-kind"))).selectByValue("speech");
        type("f-prompt", prompt);
        driver.findElement(By.id("f-submit")).click();
        String id = await(d -> d.findElements(By.cssSelector("#submit-outcome a")).stream().findFirst()
                .map(WebElement::getText).orElse(null), Duration.ofSeconds(30));
        await(d -> "succeeded".equals(status(id)) ? true : null, JOB_LIMIT);
        return id;
    }

    /** The text of element {@code id} (looked up again if the page rebuilt it meanwhile). */
    private String text(String id) {
        return await(d -> d.findElement(By.id(id)).getText(), Duration.ofSeconds(30));
    }

    private void type(String id, String text) {
        WebElement field = driver.findElement(By.id(id));
        field.clear();
        field.sendKeys(text);
    }

    /** The status a job's row shows now (read in one step: the page rebuilds its rows every 2 s). */
    private String status(String requestId) {
        return (String) driver.executeScript("const badge = document.querySelector("
                + "`#jobs-table tr[data-request-id='${arguments[0]}'] [data-status]`);"
                + "return badge === null ? null : badge.dataset.status;", requestId);
    }

    private static String apiMessage(JsonNode refused, String field) {
        for (JsonNode error : refused.path("errors")) {
            if (field.equals(error.path("field").asText())) {
                return error.path("message").asText();
            }
        }
        throw new AssertionError("the API named no error for " + field + ": " + refused);
    }

    private <T> T await(Function<WebDriver, T> condition, Duration limit) {
        // the page rebuilds its tables every 2 s: an element found just before is looked up again
        return new WebDriverWait(driver, limit, Duration.ofMillis(100))
                .ignoring(StaleElementReferenceException.class).until(condition::apply);
    }

    private void saveScreenshot(String name) throws IOException {
        Path target = TestPaths.repo().resolve("local-stack/launcher/target").resolve(name);
        Files.createDirectories(target.getParent());
        Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
    }
}
