package dev.luavm.host;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * What names a module, for host functions granted to one module
 * ({@code Capabilities.Builder#grantToModule}), and how a module file's name is found.
 *
 * <p>A module name is what {@code require} takes: dotted words of letters, digits, {@code _}
 * and {@code -} ({@code "billing"}, {@code "acme.ledger"}). Code gets a module's identity only
 * from a searcher that loads source the host vouches for, through
 * {@code CallContext#asModule}: a file inside the module directories is the module its place
 * names ({@link #ofFile}), whatever name {@code require} was asked for and whatever
 * {@code package.path} says, so a script that points {@code package.path} at another file gets
 * that file's identity, never the one it asked for; the host resolver's source is the module it
 * was asked for. A virtual file system's searcher should do as the module directories do, and
 * only for mounts the host declares trusted (never for a mount the script can write).
 */
public final class ModuleIdentity {
    private ModuleIdentity() {}

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*");

    /** True when {@code name} is a module name (see the class comment). */
    public static boolean isName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /**
     * The module a file is, from its path relative to its module directory: without
     * {@code .lua}, or without {@code /init.lua}, with {@code /} read as {@code .}
     * ({@code acme/ledger.lua} and {@code acme/ledger/init.lua} are {@code acme.ledger}); null
     * when that gives no module name (a file not ending in {@code .lua}, a dot in a directory or
     * in the file's own name, an empty part).
     */
    public static String ofFile(Path relative) {
        int n = relative.getNameCount();
        if (n == 0 || relative.isAbsolute()) return null;
        String last = relative.getName(n - 1).toString();
        if (!last.endsWith(".lua")) return null;
        String base = last.substring(0, last.length() - 4);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n - 1; i++) {
            String part = relative.getName(i).toString();
            if (part.indexOf('.') >= 0) return null;
            if (b.length() > 0) b.append('.');
            b.append(part);
        }
        if (!(base.equals("init") && n > 1)) {
            if (base.indexOf('.') >= 0) return null;
            if (b.length() > 0) b.append('.');
            b.append(base);
        }
        String name = b.toString();
        return isName(name) ? name : null;
    }
}
