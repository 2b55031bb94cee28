package dev.luavm.value;

/**
 * An upvalue: a variable captured by a closure. While the variable's frame is live the upvalue
 * is <em>open</em> and reads and writes the register {@code stack[index]} of the coroutine that
 * owns it; when the frame ends (or a block with captured locals exits) the VM <em>closes</em> it,
 * copying the value inside. Every closure capturing the same variable shares one Upvalue.
 * When a coroutine's stack is reallocated it repoints {@link #stack} of its open upvalues.
 */
public final class Upvalue {
    /** the owning coroutine's register stack while open; null once closed */
    public Object[] stack;
    /** register index while open */
    public final int index;
    /** the value once closed */
    private Object value;
    /** next open upvalue of the same coroutine, ordered by decreasing index (maintained by the VM) */
    public Upvalue nextOpen;

    /** An open upvalue on {@code stack[index]}. */
    public Upvalue(Object[] stack, int index) {
        this.stack = stack;
        this.index = index;
    }

    /** A closed upvalue holding {@code value}. */
    public static Upvalue closed(Object value) {
        Upvalue u = new Upvalue(null, -1);
        u.value = value;
        return u;
    }

    public Object get() {
        Object[] s = stack;
        return s != null ? s[index] : value;
    }

    public void set(Object v) {
        Object[] s = stack;
        if (s != null) s[index] = v; else value = v;
    }

    public boolean isOpen() {
        return stack != null;
    }

    /** Copies the register's value inside and detaches from the stack. */
    public void close() {
        if (stack != null) {
            value = stack[index];
            stack = null;
        }
    }
}
