/** The coroutine bundle ("coroutine"); resume and yield are VM intrinsics, no Java threads. */
package dev.luavm.stdlib.coroutine;
