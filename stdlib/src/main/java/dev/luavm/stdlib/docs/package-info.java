/**
 * The {@code docs} bundle: a table describing what the sandbox was granted, callable to print
 * it ({@link dev.luavm.stdlib.docs.DocsLibrary}).
 */
package dev.luavm.stdlib.docs;
