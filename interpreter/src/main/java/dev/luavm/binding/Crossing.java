package dev.luavm.binding;

import dev.luavm.LuaHandle;
import dev.luavm.host.HostCall;

import java.util.List;

/**
 * One host call's conversions between Lua-side values and a module method's types: the call
 * (for gas and callbacks) and how deep the conversion is, so a self-containing Java collection
 * returned by a method is refused instead of overflowing the Java stack.
 */
final class Crossing {
    /** deeper than the gateway's own ceiling, so Lua values never reach it */
    static final int MAX_DEPTH = 1000;

    private final HostCall call;
    private final Thread thread;
    private int depth;
    /** the Java containers being converted to Lua, by identity: a DAG is fine, a cycle is refused */
    private final java.util.IdentityHashMap<Object, Boolean> open = new java.util.IdentityHashMap<>();
    /** set when the method returned: its callbacks are dead from then on */
    private volatile boolean over;

    Crossing(HostCall call) {
        this.call = call;
        this.thread = Thread.currentThread();
    }

    /** The method returned (or threw): a callback it kept can no longer be called. */
    void end() {
        over = true;
    }

    String name() {
        return call.name();
    }

    /** 1 gas per value copied (the gas rule's element work), before the copy. */
    void chargeGas(long values) {
        call.chargeGas(values);
    }

    /**
     * Calls a Lua function the method was given. Only during the call that received it and on
     * its thread: a callback kept and called later (in another host call, after the run, after
     * the sandbox closed) or from another thread throws {@link StaleCallbackException}, which
     * the script sees as that message when the throwing method is a module method.
     */
    List<Object> callLua(LuaHandle fn, Object... args) {
        if (over) throw new StaleCallbackException("a Lua function passed to '" + call.name() + "' was called after that call returned");
        if (Thread.currentThread() != thread) {
            throw new StaleCallbackException("a Lua function passed to '" + call.name() + "' was called from another thread than its call's");
        }
        return call.callLua(fn, args);
    }

    /** A Lua callback called outside the host call that received it. */
    static final class StaleCallbackException extends IllegalStateException {
        StaleCallbackException(String message) {
            super(message);
        }
    }

    /** One level into a container; {@link #leave()} after it. */
    void enter() throws BadValue {
        if (++depth > MAX_DEPTH) {
            depth = 0;
            throw new BadValue("value nested too deep (more than " + MAX_DEPTH + " levels)");
        }
    }

    void leave() {
        depth--;
    }

    /**
     * One level into a Java container on its way to Lua: also refuses a container that holds
     * itself (a list in itself, a record whose list holds the record), which would otherwise
     * only stop at the depth bound, with a message about depth. {@link #leave(Object)} after it.
     */
    void enter(Object container) throws BadValue {
        enter();
        if (open.put(container, Boolean.TRUE) != null) {
            leave();
            throw new BadValue("a value that contains itself");
        }
    }

    void leave(Object container) {
        open.remove(container);
        leave();
    }

    /**
     * Containers already converted in this call, each direction apart: by identity (the
     * container), then the adapters that converted it and what each made. A container met twice
     * is converted once (a table held twice stays one object), as the gateway's converter does.
     */
    private java.util.IdentityHashMap<Object, Object[]> doneIn;
    private java.util.IdentityHashMap<Object, Object[]> doneOut;

    private static Object lookup(java.util.IdentityHashMap<Object, Object[]> done, TypeAdapter adapter, Object v) {
        Object[] made = done == null ? null : done.get(v);
        if (made == null) return null;
        for (int i = 0; i < made.length; i += 2) if (made[i] == adapter) return made[i + 1];
        return null;
    }

    private static void store(java.util.IdentityHashMap<Object, Object[]> done, TypeAdapter adapter, Object v, Object converted) {
        Object[] made = done.get(v);
        Object[] more = made == null ? new Object[2] : java.util.Arrays.copyOf(made, made.length + 2);
        more[more.length - 2] = adapter;
        more[more.length - 1] = converted;
        done.put(v, more);
    }

    /**
     * What {@code adapter} already made of the Lua-side container {@code v} in this call, or
     * null. Without this a table shared by its parents ({@code t = {s, s}}, thirty times over)
     * would become 2^30 Java objects on the host's heap: conversion stays linear in what the
     * script holds.
     */
    Object convertedIn(TypeAdapter adapter, Object v) {
        return lookup(doneIn, adapter, v);
    }

    Object rememberIn(TypeAdapter adapter, Object v, Object converted) {
        if (doneIn == null) doneIn = new java.util.IdentityHashMap<>();
        store(doneIn, adapter, v, converted);
        return converted;
    }

    /** What {@code adapter} already made of the host's container {@code v} in this call, or null. */
    Object convertedOut(TypeAdapter adapter, Object v) {
        return lookup(doneOut, adapter, v);
    }

    Object rememberOut(TypeAdapter adapter, Object v, Object converted) {
        if (doneOut == null) doneOut = new java.util.IdentityHashMap<>();
        store(doneOut, adapter, v, converted);
        return converted;
    }
}
