package dev.luavm.host;

import java.util.List;

/**
 * A {@link HostGrant} made below the public API: a module's declared function before the host
 * grants it ({@link HostGrant#declared}), or the plain grant of {@link HostGateway#wrap(String,
 * HostFunction)}.
 */
record DeclaredGrant(String path, String description, HostFunction function, Safety safety, List<Param> params,
                     List<Param> returns, List<String> effects, Redactor redactor, String example, String module,
                     boolean onSandboxThread) implements HostGrant {
    /** A plain grant: {@code UNSAFE}, nothing declared. */
    static DeclaredGrant plain(String path, String description, HostFunction function) {
        return new DeclaredGrant(path, description, function, Safety.UNSAFE, List.of(), List.of(), List.of(),
                Redactor.none(), null, null, false);
    }
}
