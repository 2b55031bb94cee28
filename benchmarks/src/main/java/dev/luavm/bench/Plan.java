package dev.luavm.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Tells {@code run-all.sh} what to run, as comma-separated lists for JMH's {@code -p}:
 * {@code Plan engines} (engines built into this jar), {@code Plan programs ENGINE}
 * (programs in bench.dir that ENGINE is not skipped on), {@code Plan skips ENGINE}
 * (tab-separated program and reason per line).
 */
public final class Plan {

    private Plan() {
    }

    public static void main(String[] args) {
        if (args.length == 1 && args[0].equals("engines")) {
            System.out.println(String.join(",", Engines.availableEngines()));
        } else if (args.length == 2 && args[0].equals("programs")) {
            List<String> run = new ArrayList<>();
            for (String p : Programs.names()) {
                if (Skips.reason(args[1], p) == null) {
                    run.add(p);
                }
            }
            System.out.println(String.join(",", run));
        } else if (args.length == 2 && args[0].equals("skips")) {
            for (String p : Programs.names()) {
                String why = Skips.reason(args[1], p);
                if (why != null) {
                    System.out.println(p + "\t" + why);
                }
            }
        } else {
            System.err.println("usage: Plan engines | Plan programs ENGINE | Plan skips ENGINE");
            System.exit(2);
        }
    }
}
