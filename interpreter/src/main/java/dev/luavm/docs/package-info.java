/**
 * What a sandbox was granted, written for the reader who must use it: a model given a system
 * prompt ({@link dev.luavm.docs.HostDocs#markdown}) or a script calling {@code docs()} (the
 * {@code docs} bundle renders {@link dev.luavm.docs.HostDocs#overview()} and
 * {@link dev.luavm.docs.HostDocs#text(String)}). Both are made from the
 * {@link dev.luavm.Capabilities} alone, so they list exactly what was granted.
 */
package dev.luavm.docs;
