package dev.luavm.binding;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a plain Java class whose {@link LuaFunction} methods a host grants to scripts as one Lua
 * module: {@code @LuaModule("invoice")} puts them in the global table {@code invoice}
 * ({@code invoice.lookup_vendor(...)}); a dotted name ({@code "acme.invoice"}) nests tables.
 * Registered with {@code Capabilities.Builder.module(instance)}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface LuaModule {
    /** The module's Lua name: a Lua name or a dotted path of names. */
    String value();
}
