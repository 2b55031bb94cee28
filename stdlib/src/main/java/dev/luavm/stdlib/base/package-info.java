/** The base library bundle ("base"): print, pcall, load (text only), metatables, iteration. */
package dev.luavm.stdlib.base;
