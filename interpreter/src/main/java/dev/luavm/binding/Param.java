package dev.luavm.binding;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes a parameter of a {@link LuaFunction} method: {@code @Param("vendor id") String id}.
 * The name shown by {@code docs} and used by the audit log's redaction is {@link #name()}, else
 * the parameter's name when the class was compiled with {@code -parameters}, else
 * {@code arg1}, {@code arg2}...
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Param {
    /** One line: what the parameter is. */
    String value() default "";

    /** The parameter's name in docs and the audit log. */
    String name() default "";

    /** Nil (or no value) is accepted and passed as null; an {@code Optional<T>} parameter is always optional. */
    boolean optional() default false;

    /** The audit log shows {@code <redacted>} instead of the value (secrets, tokens). */
    boolean redact() default false;
}
