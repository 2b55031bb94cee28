package dev.luavm.binding;

import dev.luavm.host.Safety;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A method of a {@link LuaModule} class granted to scripts as {@code module.name}. Its
 * parameters and return type decide the Lua types checked and converted (see
 * {@link ModuleBinder}); the description, safety class, effects and example are declared as
 * with {@code Capabilities.Builder.declare} and shown by {@code docs}.
 *
 * <pre>{@code
 * @LuaFunction(description = "Look up a vendor by id", safety = Safety.SAFE,
 *              returns = "the vendor", example = "print(invoice.lookup_vendor('V-1').name)")
 * public Vendor lookupVendor(@Param("vendor id") String id) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface LuaFunction {
    /** One line: what the function does. */
    String description();

    /** The Lua name within the module; by default the method's name in snake case ({@code lookupVendor} is {@code lookup_vendor}). */
    String name() default "";

    /** How the gateway decides whether a call runs ({@link Safety#UNSAFE} by default: the policy decides). */
    Safety safety() default Safety.UNSAFE;

    /** Effect tags: {@code network}, {@code filesystem}, {@code writes:<thing>}, or your own. */
    String[] effects() default {};

    /** What the result is, one line (its Lua type comes from the return type). */
    String returns() default "";

    /** An example call, as Lua source. */
    String example() default "";
}
