package dev.luavm.examples;

import dev.luavm.Capabilities;
import dev.luavm.contract.HostModule;
import dev.luavm.host.ArgConstraint;
import dev.luavm.host.HostFunctionException;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The host of the invoice-contract example ({@code examples/invoice-contract/}): the registry of
 * functions an accounts-payable system offers to normalizer scripts. The contract grants three
 * of them; the others are there to show what a contract keeps out (a vendor e-mail on the
 * network, a configuration file on disk, a write to the ledger).
 *
 * <p>Found by {@code luavm run --contract} through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/dev.luavm.contract.HostModule}), or named with {@code --host invoice}.
 * Deterministic: the same calls give the same answers on every machine, so runs replay.
 */
public final class InvoiceHost implements HostModule {
    private static final Map<String, String> ALIASES = Map.of(
            "acme corp", "Acme Corporation",
            "acme corporation", "Acme Corporation",
            "acme inc", "Acme Corporation",
            "globex", "Globex Ltd",
            "globex ltd", "Globex Ltd",
            "initech", "Initech GmbH",
            "initech gmbh", "Initech GmbH");

    /** Keyword rules in the order they apply: the first rule with a keyword in the text wins. */
    private static final List<Map<String, Object>> RULES = List.of(
            rule("software", 0.9, "license", "subscription", "saas", "software"),
            rule("hardware", 0.85, "laptop", "monitor", "server", "keyboard"),
            rule("travel", 0.85, "flight", "hotel", "taxi", "train"),
            rule("professional-services", 0.8, "consulting", "audit", "legal", "advisory"),
            rule("office-supplies", 0.75, "paper", "toner", "pens", "stationery"));

    private static Map<String, Object> rule(String category, double confidence, String... keywords) {
        return Map.of("category", category, "confidence", confidence, "keywords", List.of(keywords));
    }

    @Override
    public String name() {
        return "invoice";
    }

    @Override
    public Capabilities registry() {
        return Capabilities.builder()
                .declare("lookup_vendor_alias", "The canonical name of a vendor, or nil when unknown").safe()
                    .param("vendor_name", "string", "the vendor's name as written on the invoice", ArgConstraint.length(1, 200))
                    .returns("string", "the canonical vendor name, or nil")
                    .effects("reads:vendor-master")
                    .grant(call -> ALIASES.get(key(call.stringArg(0))))
                .declare("get_category_rules", "The expense category rules: {category, confidence, keywords} in order").safe()
                    .returns("table", "the rules")
                    .effects("reads:category-rules")
                    .grant(call -> RULES)
                .declare("emit_review_note", "Adds a note to the human review queue").unsafe()
                    .param("note", "string", "what a reviewer should check", ArgConstraint.length(1, 500))
                    .returns("boolean", "true when queued")
                    .effects("writes:review-queue")
                    .grant(call -> true)
                .declare("send_vendor_email", "E-mails the vendor").unsafe()
                    .param("to", "string", "the address")
                    .param("body", "string", "the message")
                    .effects("network")
                    .grant(call -> {
                        throw new HostFunctionException("the example host sends no e-mail");
                    })
                .declare("read_config_file", "Reads a configuration file of the payables system").unsafe()
                    .param("path", "string", "the file")
                    .effects("filesystem")
                    .grant(call -> {
                        throw new HostFunctionException("the example host reads no file");
                    })
                .declare("post_to_ledger", "Posts an entry to the general ledger").unsafe()
                    .param("entry", "table", "the entry")
                    .effects("writes:ledger")
                    .grant(call -> {
                        throw new HostFunctionException("the example host has no ledger");
                    })
                .build();
    }

    /** Lower case, punctuation dropped, spaces collapsed: "ACME Corp." is "acme corp". */
    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 ]", "").trim().replaceAll(" +", " ");
    }
}
