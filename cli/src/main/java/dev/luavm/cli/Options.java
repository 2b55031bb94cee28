package dev.luavm.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The parsed command line, as {@code lua.c} reads it plus luavm's limit options:
 * <pre>
 *   luavm [options] [script [args]]
 *   -e stat       execute string 'stat' (in order, before the script)
 *   -i            enter interactive mode after running the script
 *   -l            print a luac-style listing of the script instead of running it (-l -l: full);
 *                 with --tier: run the script, then list the functions the run compiled (stderr)
 *   -v            show version information
 *   -E            ignored (luavm reads no environment variables)
 *   --            stop handling options
 *   -             stop handling options and run stdin
 *   --gas N  --memory SIZE  --timeout DURATION  --output SIZE  --depth N  --caps LIST  --path DIR  --tier T  --help
 *   --audit FILE  --audit-key KEY  --audit-events N  --seed N|random  --mount POINT=SOURCE:MODE  --save FILE  --restore FILE
 * </pre>
 * {@link #rawArgs} keeps every argument so the {@code arg} table can give the interpreter's
 * own arguments negative indices, as {@code lua.c} does; {@link #scriptIndex} is the script's
 * position in it (or -1 without a script).
 */
final class Options {
    /** An {@code -e} chunk, in command-line order. */
    final List<String> statements = new ArrayList<>();
    boolean interactive;
    int listing;
    boolean version;
    boolean help;
    /** null: no script; "-" for stdin */
    String script;
    int scriptIndex = -1;
    List<String> rawArgs = List.of();

    Long gas;
    Long memory;
    /** {@code --depth}: the call depth (nested Lua calls), or null for the default */
    Integer depth;
    Duration timeout;
    Long output;
    /** comma-separated bundle names, null for the default */
    String caps;
    /** {@code --path DIR}, in order: where require looks after the script's own directory */
    final List<String> paths = new ArrayList<>();
    /** {@code --mount} specifications, in order ({@link Mounts}) */
    final List<String> mounts = new ArrayList<>();
    /** where the JSON Lines audit log (with the recording) goes, or null */
    String audit;
    /** the file holding the key that seals the audit log, or null (unkeyed) */
    String auditKey;
    /** events per run the audit log may take ({@code Limits.withAuditEvents}), or null: unlimited */
    Long auditEvents;
    /** the random seed, which also makes time virtual (deterministic runs); null: the default seed (or entropy), real time */
    Long seed;
    /** {@code --seed random}: a seed from entropy instead of the fixed default */
    boolean entropy;
    /** where the state goes after a run that succeeded ({@code --save}), or null */
    String save;
    /** the snapshot the sandbox starts from ({@code --restore}), or null */
    String restore;
    /** --tier interp|auto|compile-all; null for the default */
    dev.luavm.vm.tier.Tier tier;

    /** Arguments after the script (its {@code ...} and {@code arg[1..n]}). */
    List<String> scriptArgs() {
        return scriptIndex < 0 ? List.of() : rawArgs.subList(scriptIndex + 1, rawArgs.size());
    }
}
