/** The safe subset of the debug library ("debug"): traceback and a limited getinfo. */
package dev.luavm.stdlib.debug;
