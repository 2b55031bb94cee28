package dev.luavm.contract;

import dev.luavm.Capabilities;
import dev.luavm.host.ArgConstraint;
import dev.luavm.host.HostFunctionException;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A host registry for the tests, and a minimal valid contract to vary. */
final class TestHost {
    /** Calls that reached a function body, for "nothing ran" checks. */
    final AtomicInteger calls = new AtomicInteger();

    Capabilities registry() {
        return Capabilities.builder()
                .declare("lookup", "Looks a name up").safe()
                    .param("name", "string", "a name", ArgConstraint.length(1, 50))
                    .returns("string", "the canonical name")
                    .effects("reads:master")
                    .grant(call -> {
                        calls.incrementAndGet();
                        return call.stringArg(0).toUpperCase();
                    })
                .declare("note", "Queues a note").unsafe()
                    .param("text", "string", "the note")
                    .returns("boolean", "queued")
                    .effects("writes:queue")
                    .grant(call -> {
                        calls.incrementAndGet();
                        return true;
                    })
                .declare("secret", "Reads a secret").safe()
                    .param("key", "string", "the key")
                    .returns("string", "the secret")
                    .grant(call -> {
                        calls.incrementAndGet();
                        return "s3cr3t-" + call.stringArg(0);
                    })
                .declare("fetch", "Fetches a URL").unsafe()
                    .param("url", "string", "the URL")
                    .effects("network")
                    .grant(call -> {
                        calls.incrementAndGet();
                        return "page";
                    })
                .declare("slow", "Takes its time").unsafe()
                    .grant(call -> {
                        calls.incrementAndGet();
                        Thread.sleep(5_000);
                        return null;
                    })
                .declare("fail", "Always fails").safe()
                    .grant(call -> {
                        throw new HostFunctionException("backend down");
                    })
                .declare("app.ledger.post", "Posts to the ledger").unsafe()
                    .param("entry", "table", "the entry")
                    .effects("writes:ledger")
                    .grant(call -> {
                        calls.incrementAndGet();
                        return true;
                    })
                .build();
    }

    /** A valid contract; each replacement {@code "field: value"} replaces the line starting with that field. */
    static String contract(String... replacements) {
        String base = String.join("\n", List.of(
                "purpose: Test the contract",
                "input: {type: object, required: [name], properties: {name: {type: string}, n: {type: integer}}}",
                "output: {type: object, required: [value], additionalProperties: false, properties: {value: {type: string}}}",
                "functions: [lookup, {name: note, max_calls: 2}]",
                "libraries: [base, string, table, math]",
                "forbidden: [network, filesystem, environment]",
                "data_boundary: test data only",
                "limits: {gas: 10000000, memory: 4MiB, time: 2s, output: 1KiB, depth: 100}",
                "audit: [arguments, results, output]",
                "approval_owner: owner@example.com",
                "rollback: manual-review")) + "\n";
        for (String r : replacements) {
            String field = r.substring(0, r.indexOf(':') + 1);
            StringBuilder sb = new StringBuilder();
            boolean done = false;
            for (String line : base.split("\n")) {
                if (!done && line.startsWith(field)) {
                    if (!r.endsWith(": DELETE")) sb.append(r).append('\n');
                    done = true;
                } else {
                    sb.append(line).append('\n');
                }
            }
            if (!done) sb.append(r).append('\n');
            base = sb.toString();
        }
        return base;
    }
}
