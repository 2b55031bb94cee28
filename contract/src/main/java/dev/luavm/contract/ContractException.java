package dev.luavm.contract;

/**
 * A contract that cannot be loaded: a syntax error, an unknown field, a bad value, a function the
 * host does not offer, a grant with a forbidden effect. The message names the file, the line and
 * the field: {@code contract.yaml:14: functions[2].name: 'send_mail' is not in the host's registry}.
 */
public final class ContractException extends RuntimeException {
    private final String file;
    private final int line;
    private final String field;
    private final String problem;

    public ContractException(String file, int line, String field, String problem) {
        super(format(file, line, field, problem));
        this.file = file;
        this.line = line;
        this.field = field;
        this.problem = problem;
    }

    private static String format(String file, int line, String field, String problem) {
        StringBuilder sb = new StringBuilder(file);
        if (line > 0) sb.append(':').append(line);
        sb.append(": ");
        if (field != null && !field.isEmpty()) sb.append(field).append(": ");
        return sb.append(problem).toString();
    }

    /** The contract's file name as given. */
    public String file() {
        return file;
    }

    /** The line (from 1) where the offending field or value is, or 0 when unknown. */
    public int line() {
        return line;
    }

    /** The field's path ({@code limits.time}, {@code functions[1].safety}), or null for the whole file. */
    public String field() {
        return field;
    }

    /** What is wrong, without the position. */
    public String problem() {
        return problem;
    }
}
