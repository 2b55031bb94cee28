/** The {@code luavm} command line: lua5.3-compatible options, sandbox limits, a REPL, listings. */
package dev.luavm.cli;
