package io.gpupipe.localstack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium and ChromeDriver ({@code apt-get install chromium chromium-driver}; {@code .ci/run} installs
 * them), driven by Selenium with both paths given, so that Selenium Manager never tries to download a browser or a
 * driver. The flags keep Chromium off the network, which this machine refuses (it would otherwise call Google's
 * services at every start), with a fresh profile each time.
 */
final class HeadlessChromium implements AutoCloseable {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** True when both Debian packages are installed. */
    static boolean installed() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    /** Why a browser test cannot run here. */
    static String missing() {
        return "no headless browser: " + CHROMIUM + " and " + CHROMEDRIVER + " are needed (Debian: apt-get install -y "
                + "chromium chromium-driver; .ci/run installs them)";
    }

    static HeadlessChromium start() {
        Path profile;
        try {
            profile = Files.createTempDirectory("gpupipe-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1440,1000", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort()
                .withTimeout(Duration.ofMinutes(2)).build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofMinutes(1)).scriptTimeout(Duration.ofSeconds(30));
        return new HeadlessChromium(driver, profile);
    }

    ChromeDriver driver() {
        return driver;
    }

    @Override
    public void close() {
        driver.quit();
        io.gpupipe.localstack.internal.ComponentPackages.deleteTree(profile);
    }
}
