package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A sandbox contract: the manifest of what one script may do, read from a YAML (or JSON) file
 * and enforced around each of its runs. Immutable.
 *
 * <pre>
 * purpose: Normalize one invoice line for the ledger
 * input:  { JSON Schema }          # checked before any Lua runs
 * output: { JSON Schema }          # a result that fails it is withheld
 * functions:                       # host functions granted, by name, each with its safety class
 *   - lookup_vendor_alias          #   (the host's declaration)
 *   - { name: emit_review_note, safety: unsafe, max_calls: 3 }
 * libraries: [base, string, table, math]
 * forbidden: [network, filesystem, environment, process, cross-tenant]
 * data_boundary: Only the invoice line given as input; nothing leaves but the result.
 * error_detail: location          # or none, full: what a failed run's message may say
 * limits: { gas: 5000000, memory: 16MiB, time: 500ms, output: 16KiB, depth: 200 }
 * audit: [arguments, results, output]
 * approval_owner: finance-controls@example.com
 * rollback: manual-review         # or last-approved
 * filesystem:                     # mounts the host offers that the script may use (optional)
 *   mounts: [{ path: /tmp, mode: memory, quota: 8MiB }, { path: /data, mode: read-only }]
 * modules:                        # reviewed Lua modules the script may require (optional)
 *   billing:
 *     source: |                   #   the module's code, approved with the contract
 *       local M = {} function M.post(e) return app.ledger.post(e) end return M
 *     functions: [app.ledger.post] #   granted to this module's code only
 * </pre>
 *
 * {@link #load} and {@link #parse} check the file on its own (fields, types, values, schemas);
 * {@link #bind} checks it against the host's registry of functions and library bundles and gives
 * the {@link ContractRunner} that enforces it. docs/CONTRACT.md explains every field.
 */
public final class Contract {
    /** The largest contract file read. */
    public static final int MAX_BYTES = 1 << 20;

    /**
     * The library bundles a contract may grant, and nothing else: {@code os.exit} (ends the run
     * with a status of the script's choosing) and {@code docs} are refused when the contract
     * loads. {@code standard} is base, coroutine, string, table, math, utf8 and os. Under a
     * contract {@code io} has no standard input (the script's input is its argument), its
     * {@code stdout} and {@code stderr} are where {@code print} writes, and its files are the
     * {@code filesystem:} section's mounts.
     */
    public static final java.util.List<String> LIBRARIES = java.util.List.of("base", "coroutine", "string", "table", "math",
            "utf8", "os", "io", "package", "debug", "standard");

    private final String file;
    private final String purpose;
    private final JsonSchema input;
    private final JsonSchema output;
    private final List<FunctionRule> functions;
    private final List<String> libraries;
    private final List<String> forbidden;
    private final String dataBoundary;
    private final ErrorDetail errorDetail;
    private final ContractLimits limits;
    private final AuditRule audit;
    private final String approvalOwner;
    private final Rollback rollback;
    private final LocatedTree tree;
    /** the file's text, set once by {@link #parse} */
    private String text;
    /** the {@code filesystem:} section, set once by the reader; null when the contract has none */
    private FilesystemRule filesystem;
    /** the {@code modules:} section, set once by the reader */
    private List<ModuleRule> modules = List.of();

    Contract(String file, String purpose, JsonSchema input, JsonSchema output, List<FunctionRule> functions,
             List<String> libraries, List<String> forbidden, String dataBoundary, ErrorDetail errorDetail, ContractLimits limits,
             AuditRule audit, String approvalOwner, Rollback rollback, LocatedTree tree) {
        this.file = file;
        this.purpose = purpose;
        this.input = input;
        this.output = output;
        this.functions = List.copyOf(functions);
        this.libraries = List.copyOf(libraries);
        this.forbidden = List.copyOf(forbidden);
        this.dataBoundary = dataBoundary;
        this.errorDetail = Objects.requireNonNull(errorDetail, "errorDetail");
        this.limits = limits;
        this.audit = audit;
        this.approvalOwner = approvalOwner;
        this.rollback = rollback;
        this.tree = tree;
    }

    /** Reads and checks a contract file (YAML, or JSON when its name ends in {@code .json}). */
    public static Contract load(Path file) {
        String name = file.toString();
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) throw new ContractException(name, 0, null, "larger than " + MAX_BYTES + " bytes");
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ContractException(name, 0, null, "cannot read: " + e.getMessage());
        }
        return parse(name, new String(bytes, StandardCharsets.UTF_8));
    }

    /** Checks a contract given as text; {@code fileName} is used in errors and picks JSON or YAML. */
    public static Contract parse(String fileName, String text) {
        Objects.requireNonNull(fileName, "fileName");
        if (text.length() > MAX_BYTES) throw new ContractException(fileName, 0, null, "larger than " + MAX_BYTES + " bytes");
        Contract c = ContractReader.read(LocatedTree.read(fileName, text));
        c.text = text;
        return c;
    }

    /**
     * Checks this contract against the host's registry ({@code registry}: every host function
     * the host offers, declared with its safety class and effects) and gives the runner that
     * enforces it. Fails, naming the file, line and field, when a function is not in the
     * registry, a contract loosens a function's safety class, a runnable function has a
     * forbidden effect, or a library is unknown.
     */
    public ContractRunner bind(dev.luavm.Capabilities registry) {
        return ContractRunner.bind(this, registry, dev.luavm.host.HostCallPolicy.allowAll(), dev.luavm.LuaVM.create());
    }

    /** The file the contract came from, as given. */
    public String file() { return file; }

    /** What the script is for, in a sentence. */
    public String purpose() { return purpose; }

    /** The schema every input must meet before the script runs. */
    public JsonSchema input() { return input; }

    /** The schema every result must meet to be released. */
    public JsonSchema output() { return output; }

    /** The host functions granted, in the file's order. */
    public List<FunctionRule> functions() { return functions; }

    /** The reviewed Lua modules the contract carries, each with the functions granted to it only ({@code modules:}). */
    public List<ModuleRule> modules() { return modules; }

    /** The mounts the script may use ({@code filesystem:}), each narrowing one the host offers; null when none. */
    public FilesystemRule filesystem() { return filesystem; }

    void filesystem(FilesystemRule filesystem) {
        this.filesystem = filesystem;
    }

    void modules(List<ModuleRule> modules) {
        this.modules = List.copyOf(modules);
    }

    /** The library bundles granted ({@code base}, {@code string}, ...). */
    public List<String> libraries() { return libraries; }

    /** Effects no runnable granted function may have. */
    public List<String> forbidden() { return forbidden; }

    /** What data the script may see and what may leave; free text for reviewers, or null. */
    public String dataBoundary() { return dataBoundary; }

    /** What a failed run's outcome may say ({@code error_detail}; {@link ErrorDetail#LOCATION} when not given). */
    public ErrorDetail errorDetail() { return errorDetail; }

    public ContractLimits limits() { return limits; }

    public AuditRule audit() { return audit; }

    /** Who approves new capabilities and new versions of the script. */
    public String approvalOwner() { return approvalOwner; }

    public Rollback rollback() { return rollback; }

    /** The contract file's text, as read (a contract log keeps it, so a replay checks against the same contract). */
    public String text() {
        return text;
    }

    /** The line of a field ({@code functions[1].name}) in the file, or 0. */
    int line(String field) {
        return tree.line(field);
    }

    /** An error about {@code field}, positioned at its line. */
    ContractException error(String field, String problem) {
        return new ContractException(file, line(field), field, problem);
    }

    /** The contract as written, for showing ({@link ContractSummary}). */
    JsonNode tree() {
        return tree.root;
    }
}
