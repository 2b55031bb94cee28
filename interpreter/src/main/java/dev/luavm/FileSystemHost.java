package dev.luavm;

import dev.luavm.host.HostGateway;
import dev.luavm.host.Param;
import dev.luavm.host.Safety;
import dev.luavm.lib.CallContext;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.vfs.Errno;
import dev.luavm.vfs.VfsException;
import dev.luavm.vfs.session.MemoryAccount;
import dev.luavm.vfs.session.SessionHost;
import dev.luavm.vm.LuaError;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * A sandbox's side of its file system session ({@link dev.luavm.vfs.session.Session}): backend
 * calls as the gateway's host work, the sandbox's memory meter, its gas, and the three
 * {@code writes:fs} events. Each event is a grant of its own ({@code fs.write(path, mode)},
 * {@code fs.remove(path)}, {@code fs.rename(from, to)}; {@code UNSAFE}, effect
 * {@code writes:fs}) wrapped by the gateway but never installed in the script's globals: the
 * library calls it before it acts, so the policy decides (allow, deny, ask) and the audit log
 * records the call as any host call; its function only says "approved".
 */
final class FileSystemHost implements SessionHost {
    static final String EFFECT = "writes:fs";

    private final HostGateway gateway;
    private final MemoryMeter meter;
    private final Engine engine;
    private final long seed;
    private final Builtin write;
    private final Builtin remove;
    private final Builtin rename;
    private final MemoryAccount memory = new MemoryAccount() {
        @Override
        public void hold(long bytes) throws VfsException {
            try {
                meter.hold(bytes);
            } catch (LuaError e) {
                throw new VfsException(Errno.ENOSPC); // as a full tmpfs: the sandbox's memory is the disk
            }
        }

        @Override
        public void release(long bytes) {
            meter.release(bytes);
        }
    };
    /** set by an event's function when the gateway let it run */
    private boolean approved;
    /** true while the run's streams are closed after it ended: backend calls then run without its deadline */
    private boolean ending;

    FileSystemHost(HostGateway gateway, MemoryMeter meter, Engine engine, long seed) {
        this.gateway = gateway;
        this.meter = meter;
        this.engine = engine;
        this.seed = seed;
        Param path = new Param("path", "string", "the file's absolute name in the sandbox's file system", List.of());
        this.write = event("fs.write", "Open a file to write it (create, truncate or append)",
                List.of(path, new Param("mode", "string", "the mode io.open was given, without 'b'", List.of())));
        this.remove = event("fs.remove", "Remove a file or an empty directory", List.of(path));
        this.rename = event("fs.rename", "Rename a file or a directory", List.of(
                new Param("from", "string", "the old absolute name", List.of()),
                new Param("to", "string", "the new absolute name", List.of())));
    }

    private Builtin event(String name, String description, List<Param> params) {
        return gateway.wrap(new Capabilities.Grant(name, description, call -> {
            approved = true;
            return true;
        }, Safety.UNSAFE, params, List.of(), List.of(EFFECT), null));
    }

    @Override
    public <T> T hostWork(Callable<T> work) throws Exception {
        return ending ? work.call() : gateway.hostWork(work);
    }

    @Override
    public boolean approve(CallContext c, String operation, List<String> args) {
        Builtin event = switch (operation) {
            case "fs.write" -> write;
            case "fs.remove" -> remove;
            case "fs.rename" -> rename;
            default -> throw new IllegalArgumentException(operation);
        };
        Object[] luaArgs = new Object[args.size()];
        for (int i = 0; i < luaArgs.length; i++) luaArgs[i] = c.newString(args.get(i));
        approved = false;
        try {
            c.call(event, luaArgs);
        } catch (LuaError e) {
            // refused (denied, forbidden, an operator's no): the gateway logged it; the script gets EACCES
            if (e.value() instanceof LuaString s && s.toString().equals("not enough memory")) throw e;
            return false;
        }
        return approved;
    }

    @Override
    public MemoryAccount memory() {
        return memory;
    }

    @Override
    public void chargeBytes(long n) {
        if (!ending) engine.chargeBytes(n);
    }

    @Override
    public long seed() {
        return seed;
    }

    /** Runs {@code r} (the end of a run: flushing and closing its streams) without the run's deadline or gas. */
    void ending(Runnable r) {
        ending = true;
        try {
            r.run();
        } finally {
            ending = false;
        }
    }
}
