package io.gpupipe.worker.standin;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The stand-in as a process, started the way the model-server image is: {@code vllm serve <weights path> <flags>}
 * (the stand-in image's {@code vllm} shim runs this with the arguments after {@code serve}). Like vLLM in an offline
 * image, it refuses to start when the weights path is not there. {@code GPUPIPE_STANDIN_SLOW=<fragment>=<seconds>}
 * (a test's addition, no vLLM setting) makes requests containing the fragment take that long, so a test can stop a
 * task with a job in flight.
 */
public final class VllmStandInMain {
    private VllmStandInMain() {
    }

    public static void main(String[] args) throws Exception {
        List<String> arguments = List.of(args);
        if (arguments.isEmpty() || arguments.get(0).startsWith("--") || !Files.isDirectory(Path.of(arguments.get(0)))) {
            System.err.println("vllm serve: the model path " + (arguments.isEmpty() ? "(none)" : arguments.get(0))
                    + " is not a directory in this image (HF_HUB_OFFLINE=1: nothing to download)");
            System.exit(1);
        }
        String host = value(arguments, "--host", "127.0.0.1");
        int port = Integer.parseInt(value(arguments, "--port", "8000"));
        VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.fromServerArgs(arguments),
                InetAddress.getByName(host), port);
        String slow = System.getenv("GPUPIPE_STANDIN_SLOW");
        if (slow != null && slow.contains("=")) {
            int split = slow.lastIndexOf('=');
            standIn.slow(slow.substring(0, split), Duration.ofSeconds(Long.parseLong(slow.substring(split + 1))));
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            standIn.close();
            stopped.countDown();
        }));
        System.out.println("INFO: Uvicorn running on http://" + host + ":" + port + " (stand-in for "
                + standIn.settings().model() + ", " + standIn.settings().contract().map(Enum::name).orElse("any")
                + " API)");
        stopped.await();
    }

    private static String value(List<String> args, String flag, String fallback) {
        int at = args.indexOf(flag);
        return at >= 0 && at + 1 < args.size() ? args.get(at + 1) : fallback;
    }
}
