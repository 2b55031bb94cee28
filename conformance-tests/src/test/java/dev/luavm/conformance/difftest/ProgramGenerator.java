package dev.luavm.conformance.difftest;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates random, valid, deterministic Lua 5.3 programs from a seed: the same seed always gives
 * the same program. A program is a {@link #PRELUDE} (helpers {@code show}, {@code nn},
 * {@code clip}, {@code try}) followed by statements that print many intermediate values.
 *
 * <h2>What keeps a program deterministic and short</h2>
 * <ul>
 *   <li>Every variable has a fixed {@link Kind}; assignments keep it. Safe code never raises:
 *       integer {@code //} and {@code %} divide by {@code (e | 1)} or a non-zero literal, bitwise
 *       operators take integers and integral numeric strings only, comparisons compare like with
 *       like, metamethods are used only where the class defines them.</li>
 *   <li>Errors are raised on purpose inside {@code try(function() ... end)}, which prints what
 *       {@code pcall} returned through {@code show}; a few programs end with an uncaught error.</li>
 *   <li>Nothing prints an address, a NaN's spelling or a {@code pairs} order: values go through
 *       {@code show} (tables print as {@code table} or their {@code __tostring}, NaN as
 *       {@code nan}); floats that may be NaN are wrapped in {@code nn} before they become text;
 *       tables are kept sequences (no holes) so {@code #} has one answer; only integers are sorted.</li>
 *   <li>Loops have literal bounds of at most 4 iterations and nest at most twice; strings stored
 *       in variables are clipped to 40 bytes; no recursion; nothing inserts into a table that an
 *       enclosing {@code ipairs} walks.</li>
 * </ul>
 */
final class ProgramGenerator {
    /** Helpers every program starts with. */
    static final String PRELUDE = String.join("\n",
            "local function show(v)",
            "  local t = type(v)",
            "  if t == 'number' then",
            "    if v ~= v then return 'nan' end",
            "    return tostring(v)",
            "  elseif t == 'table' then",
            "    local mt = getmetatable(v)",
            "    if mt and mt.__tostring then return tostring(v) end",
            "    return 'table'",
            "  elseif t == 'function' then",
            "    return 'function'",
            "  end",
            "  return tostring(v)",
            "end",
            "local function nn(x) if x ~= x then return 0.25 end return x end",
            "local function clip(s) if #s > 40 then return s:sub(1, 40) end return s end",
            "local function try(f, ...)",
            "  local r = table.pack(pcall(f, ...))",
            "  local out = {}",
            "  for i = 1, r.n do out[i] = show(r[i]) end",
            "  print(table.unpack(out, 1, r.n))",
            "end");

    enum Kind { INT, NUM, STR, BOOL, SEQ, OBJ, CLASS, FUN, CNT }

    /**
     * Constructs the generator can leave out, so that a known, reported luavm bug does not hide
     * everything else (difftest/known-mismatches.txt lists which are left out and why).
     */
    enum Feature {
        /** numeric strings as operands of arithmetic ({@code "10" + 1} is the float 11.0) */
        NUMSTR_ARITH,
        /** a numeric string without an integer value in a bitwise operation ({@code "3.5" | 1}) */
        NUMSTR_BITWISE_NOINT,
        /** calling an object whose {@code __call} is not a function */
        CALL_NONFUNCTION,
        /** {@code __tostring} returning something that is not a string */
        TOSTRING_NONSTRING,
        /** integer {@code %} by zero */
        INT_MOD_ZERO,
        /** {@code %} on floats (computed, not folded by the compiler) */
        FLOAT_MOD,
        /** a program ending with an uncaught {@code error(nil)} */
        UNCAUGHT_ERROR_NIL
    }


    /** A generated expression; {@code mayNaN} when it is a float that could be NaN. */
    record Expr(String code, boolean mayNaN) {
        static Expr of(String code) {
            return new Expr(code, false);
        }
    }

    /** Which metamethods an object class (a metatable in a local) defines; index: 0 none, 1 table, 2 function. */
    private static final class ObjClass {
        final String mtName;
        final boolean add, eq, lt, le, concat, len, call, tostring, newindex;
        final int index;

        ObjClass(String mtName, SplittableRandom rnd) {
            this.mtName = mtName;
            add = rnd.nextInt(2) == 0;
            eq = rnd.nextInt(2) == 0;
            lt = rnd.nextInt(2) == 0;
            le = rnd.nextInt(5) < 2;
            concat = rnd.nextInt(2) == 0;
            len = rnd.nextInt(2) == 0;
            call = rnd.nextInt(2) == 0;
            tostring = rnd.nextInt(5) < 3;
            index = rnd.nextInt(3);
            newindex = rnd.nextInt(5) < 2;
        }
    }

    private static final class Var {
        final String name;
        final Kind kind;
        final boolean readonly;
        final int funcLevel;
        final ObjClass cls;
        int iterated;

        Var(String name, Kind kind, boolean readonly, int funcLevel, ObjClass cls) {
            this.name = name;
            this.kind = kind;
            this.readonly = readonly;
            this.funcLevel = funcLevel;
            this.cls = cls;
        }
    }

    private static final String[] INT_LITERALS = {"0", "1", "2", "3", "7", "10", "100", "255", "256", "1000",
            "65535", "2147483647", "2147483648", "4294967295", "4294967296", "9007199254740993",
            "9223372036854775807", "math.maxinteger", "math.mininteger", "(math.maxinteger - 1)",
            "(math.mininteger + 1)", "0x7fffffffffffffff", "0xffffffffffffffff", "0x10", "0xff", "(-1)", "(-2)",
            "(-7)", "(-100)", "(-2147483648)", "(-9223372036854775807)"};
    private static final String[] FLOAT_LITERALS = {"0.0", "(-0.0)", "0.5", "1.5", "(-2.25)", "0.1", "1e15", "1e16",
            "1e100", "1e308", "(-1e308)", "1e-308", "5e-324", "2^53", "2^63", "(-2^63)", "math.huge", "(-math.huge)",
            "3.14159", "(1/3)", "123456789012.5", "9.2233720368547758e18", "(-9223372036854775808)", "1e-5",
            "100.0", "(-7.0)", "2.5e-3", "0x1p4", "0x.8"};
    private static final String[] STR_LITERALS = {"\"\"", "\"a\"", "\"abc\"", "\"Hello\"", "\"hello world\"",
            "\"a,b,c\"", "\"x=1, y=22\"", "\"  padded  \"", "\"abc123def\"", "\"%d\"", "\"a.b\"", "\"[x]\"",
            "\"aaa\"", "\"banana\"", "\"tab\\there\"", "\"quote\\\"s\"", "\"back\\\\slash\"", "\"Mixed CASE\"",
            "'single'", "\"line\\nbreak\"", "\"zero\\0byte\"", "\"10\"", "\"3.5\"", "\" 7 \""};
    private static final String[] NUMSTR_LITERALS = {"\"10\"", "\"0x1F\"", "\"3.5\"", "\"1e2\"", "\" 7 \"",
            "\"-12\"", "\"0\"", "\"9223372036854775807\"", "\"-0\"", "\"0.1\"", "\"  0x10  \"", "\"1E1\""};
    private static final String[] INTSTR_LITERALS = {"\"10\"", "\"0x1F\"", "\"1e2\"", "\" 7 \"", "\"-12\"",
            "\"0\"", "\"9223372036854775807\"", "\"  0x10  \"", "\"-0\""};
    private static final String[] PATTERNS = {"\"%d+\"", "\"%a+\"", "\"[aeiou]\"", "\"%s\"", "\"%p\"", "\"l+\"",
            "\"^%s*\"", "\"%w+$\"", "\".\"", "\"a\"", "\"x*\"", "\"[%a_][%w_]*\"", "\"%u\"", "\"[^,]+\"", "\"%.\"",
            "\"b.n\"", "\"a-\"", "\"%x+\""};
    private static final String[] CAPTURE_PATTERNS = {"\"(%a+)\"", "\"(%d+)\"", "\"(%w+)=(%w+)\"", "\"(h)(e)\"",
            "\"()a\"", "\"(a)(n?)\"", "\"^(%s*)(.-)(%s*)$\"", "\"(%a)%1\"", "\"%f[%a](%a)\""};

    private final SplittableRandom rnd;
    private final java.util.Set<Feature> avoid;
    private final List<List<Var>> scopes = new ArrayList<>();
    private int ids;
    private int funcLevel;
    private int loopDepth;
    private boolean inVararg;
    private int budget;

    private ProgramGenerator(long seed, java.util.Set<Feature> avoid) {
        this.rnd = new SplittableRandom(seed);
        this.avoid = avoid;
    }

    /** The program for {@code seed}, as a tree whose first child is the prelude. */
    static Node generate(long seed) {
        return generate(seed, java.util.EnumSet.noneOf(Feature.class));
    }

    /** The program for {@code seed} without the {@code avoid} constructs. */
    static Node generate(long seed, java.util.Set<Feature> avoid) {
        return new ProgramGenerator(seed, avoid).program();
    }

    static String render(Node program) {
        StringBuilder sb = new StringBuilder();
        program.render(sb, 0);
        return sb.toString();
    }

    private Node program() {
        Node root = new Node(null, null, true);
        root.add(new Node(PRELUDE, null, true));
        scopes.add(new ArrayList<>());
        budget = 30 + rnd.nextInt(50);
        while (budget > 0) root.add(statement(0));
        if (rnd.nextInt(25) == 0) root.add(Node.line(errorStatement(true)));
        return root;
    }

    // ------------------------------------------------------------------ helpers

    private boolean chance(int percent) {
        return rnd.nextInt(100) < percent;
    }

    private <T> T pick(T[] options) {
        return options[rnd.nextInt(options.length)];
    }

    private String fresh(String prefix) {
        return prefix + (++ids);
    }

    private void push() {
        scopes.add(new ArrayList<>());
    }

    private void pop() {
        scopes.remove(scopes.size() - 1);
    }

    private Var declare(String name, Kind kind, boolean readonly, ObjClass cls) {
        Var v = new Var(name, kind, readonly, funcLevel, cls);
        scopes.get(scopes.size() - 1).add(v);
        return v;
    }

    private List<Var> visible(Kind kind) {
        List<Var> out = new ArrayList<>();
        for (List<Var> s : scopes) for (Var v : s) if (v.kind == kind) out.add(v);
        return out;
    }

    private Var someVar(Kind kind) {
        List<Var> vs = visible(kind);
        return vs.isEmpty() ? null : vs.get(rnd.nextInt(vs.size()));
    }

    private static String paren(Expr e) {
        return "(" + e.code + ")";
    }

    /** The expression as text that is never a NaN. */
    private static String safeText(Expr e) {
        return e.mayNaN ? "nn(" + e.code + ")" : e.code;
    }

    private String smallInt() {
        int n = rnd.nextInt(-5, 9);
        return n < 0 ? "(" + n + ")" : Integer.toString(n);
    }

    // ------------------------------------------------------------------ expressions

    private Expr intLeaf() {
        Var v = chance(55) ? someVar(Kind.INT) : null;
        if (v != null) return Expr.of(v.name);
        if (chance(40)) return Expr.of(smallInt());
        return Expr.of(pick(INT_LITERALS));
    }

    private Expr intExpr(int d) {
        if (d <= 0 || chance(25)) return intLeaf();
        switch (rnd.nextInt(16)) {
            case 0, 1, 2 -> {
                return Expr.of(paren(intExpr(d - 1)) + " " + pick(new String[]{"+", "-", "*"}) + " " + paren(intExpr(d - 1)));
            }
            case 3 -> {
                String divisor = chance(50) ? "(" + intExpr(d - 1).code + " | 1)" : pick(new String[]{"3", "(-3)", "7", "(-1)", "2", "math.maxinteger", "math.mininteger"});
                return Expr.of(paren(intExpr(d - 1)) + " " + pick(new String[]{"//", "%"}) + " " + divisor);
            }
            case 4 -> {
                return Expr.of(paren(intExpr(d - 1)) + " " + pick(new String[]{"&", "|", "~"}) + " " + paren(intExpr(d - 1)));
            }
            case 5 -> {
                String amount = chance(50) ? smallInt() : pick(new String[]{"63", "64", "65", "(-1)", "(-64)", "32", "1"});
                return Expr.of(paren(intExpr(d - 1)) + " " + pick(new String[]{"<<", ">>"}) + " " + amount);
            }
            case 6 -> {
                return Expr.of(pick(new String[]{"-", "~"}) + paren(intExpr(d - 1)));
            }
            case 7 -> {
                return Expr.of("#" + paren(strExpr(d - 1)));
            }
            case 8 -> {
                Var s = someVar(Kind.SEQ);
                return s != null ? Expr.of("#" + s.name) : intLeaf();
            }
            case 9 -> {
                String f = pick(new String[]{"math.max", "math.min"});
                return Expr.of(f + "(" + intExpr(d - 1).code + ", " + intExpr(d - 1).code + (chance(30) ? ", " + intLeaf().code : "") + ")");
            }
            case 10 -> {
                return Expr.of("math.abs(" + intExpr(d - 1).code + ")");
            }
            case 11 -> {
                Var f = funcLevel == 0 ? someVar(Kind.FUN) : null;
                // in parentheses: one value, even last in a list (the function may return two)
                if (f != null) return Expr.of("(" + f.name + "(" + intExpr(d - 1).code + ", " + intExpr(d - 1).code + "))");
                Var c = someVar(Kind.CNT);
                if (c != null) return Expr.of(c.name + "(" + smallInt() + ")");
                return intLeaf();
            }
            case 12 -> {
                return Expr.of("(" + paren(boolExpr(d - 1)) + " and " + paren(intExpr(d - 1)) + " or " + paren(intExpr(d - 1)) + ")");
            }
            case 13 -> {
                return Expr.of("(" + pick(INTSTR_LITERALS) + " " + pick(new String[]{"|", "&", "~"}) + " " + intExpr(d - 1).code + ")");
            }
            case 14 -> {
                return Expr.of("string.byte(" + pick(new String[]{"\"abc\"", "\"Zz\"", "\"hello\""}) + ", " + pick(new String[]{"1", "-1", "2"}) + ")");
            }
            default -> {
                return Expr.of("math.tointeger(" + intExpr(d - 1).code + ")");
            }
        }
    }

    private Expr numLeaf() {
        if (chance(35)) return intLeaf();
        Var v = chance(50) ? someVar(Kind.NUM) : null;
        if (v != null) return Expr.of(v.name);
        if (chance(25)) return Expr.of("(" + rnd.nextInt(-400, 400) + " / 8)");
        return Expr.of(pick(FLOAT_LITERALS));
    }

    private Expr numExpr(int d) {
        if (d <= 0 || chance(25)) return numLeaf();
        switch (rnd.nextInt(12)) {
            case 0, 1, 2, 3 -> {
                Expr a = numExpr(d - 1), b = numExpr(d - 1);
                return new Expr(paren(a) + " " + pick(new String[]{"+", "-", "*", "/", "^"}) + " " + paren(b), true);
            }
            case 4 -> {
                Expr a = numExpr(d - 1);
                String divisor = chance(50) ? "(" + numExpr(d - 1).code + " + 0.0)" : pick(new String[]{"2", "(-3)", "0.5", "(-0.0)", "0.0", "1e300"});
                return new Expr(paren(a) + " " + pick(avoid.contains(Feature.FLOAT_MOD) ? new String[]{"//"} : new String[]{"//", "%"}) + " " + divisor, true);
            }
            case 5 -> {
                return new Expr(pick(new String[]{"math.floor", "math.ceil", "math.abs"}) + "(" + numExpr(d - 1).code + ")", true);
            }
            case 6 -> {
                return new Expr(pick(new String[]{"math.max", "math.min"}) + "(" + numExpr(d - 1).code + ", " + numExpr(d - 1).code + ")", true);
            }
            case 7 -> {
                return new Expr("math.fmod(" + numExpr(d - 1).code + ", " + pick(new String[]{"3", "(-3)", "0.5", "(-1)", "1e10", "math.huge"}) + ")", true);
            }
            case 8 -> {
                String str = pick(NUMSTR_LITERALS);
                if (avoid.contains(Feature.NUMSTR_ARITH)) str = "tonumber(" + str + ")";
                return new Expr("(" + str + " " + pick(new String[]{"+", "-", "*", "/"}) + " " + paren(numExpr(d - 1)) + ")", true);
            }
            case 9 -> {
                return Expr.of("tonumber(" + pick(NUMSTR_LITERALS) + ")");
            }
            case 10 -> {
                return new Expr("-" + paren(numExpr(d - 1)), true);
            }
            default -> {
                return intExpr(d);
            }
        }
    }

    private Expr strLeaf() {
        Var v = chance(50) ? someVar(Kind.STR) : null;
        if (v != null) return Expr.of(v.name);
        return Expr.of(pick(STR_LITERALS));
    }

    private String toStringPiece(int d) {
        return switch (rnd.nextInt(4)) {
            case 0 -> intExpr(d).code;
            case 1 -> safeText(numExpr(d));
            default -> strExpr(d).code;
        };
    }

    private Expr strExpr(int d) {
        if (d <= 0 || chance(25)) return strLeaf();
        switch (rnd.nextInt(14)) {
            case 0, 1 -> {
                return Expr.of("(" + paren(Expr.of(toStringPiece(d - 1))) + " .. " + paren(Expr.of(toStringPiece(d - 1))) + ")");
            }
            case 2 -> {
                String arg = switch (rnd.nextInt(3)) {
                    case 0 -> intExpr(d - 1).code;
                    case 1 -> safeText(numExpr(d - 1));
                    default -> boolExpr(d - 1).code;
                };
                return Expr.of("tostring(" + arg + ")");
            }
            case 3 -> {
                String i = chance(70) ? smallInt() : pick(new String[]{"math.mininteger", "math.maxinteger", "(-100)", "100"});
                String j = chance(30) ? "" : ", " + (chance(70) ? smallInt() : pick(new String[]{"math.mininteger", "math.maxinteger", "(-100)", "100"}));
                return Expr.of("string.sub(" + strExpr(d - 1).code + ", " + i + j + ")");
            }
            case 4 -> {
                String sep = chance(40) ? ", " + pick(new String[]{"\",\"", "\"\"", "\"-=\""}) : "";
                return Expr.of("string.rep(" + strExpr(d - 1).code + ", " + pick(new String[]{"0", "1", "2", "3", "(-1)"}) + sep + ")");
            }
            case 5 -> {
                return Expr.of("(" + strExpr(d - 1).code + "):" + pick(new String[]{"upper", "lower", "reverse"}) + "()");
            }
            case 6 -> {
                StringBuilder codes = new StringBuilder();
                int n = 1 + rnd.nextInt(4);
                for (int k = 0; k < n; k++) {
                    if (k > 0) codes.append(", ");
                    codes.append(chance(70) ? Integer.toString(32 + rnd.nextInt(95)) : "65 + (" + intExpr(d - 1).code + ") % 26");
                }
                return Expr.of("string.char(" + codes + ")");
            }
            case 7, 8 -> {
                return Expr.of(format(d - 1));
            }
            case 9 -> {
                return Expr.of("(string.gsub(" + strExpr(d - 1).code + ", " + gsubArgs() + "))");
            }
            case 10 -> {
                return Expr.of("tostring(string.match(" + strExpr(d - 1).code + ", " + (chance(50) ? pick(PATTERNS) : pick(CAPTURE_PATTERNS)) + "))");
            }
            case 11 -> {
                Var s = someVar(Kind.SEQ);
                if (s != null) return Expr.of("table.concat(" + s.name + ", " + pick(new String[]{"\",\"", "\"\"", "\" \""}) + ")");
                return strLeaf();
            }
            case 12 -> {
                Var o = objWith(c -> c.tostring);
                if (o != null) return Expr.of("tostring(" + o.name + ")");
                return strLeaf();
            }
            default -> {
                Var o = objWith(c -> c.concat);
                if (o != null) return Expr.of("(" + o.name + " .. " + strLeaf().code + ")");
                return Expr.of(toStringPiece(d - 1) + " .. \"\"");
            }
        }
    }

    private String gsubArgs() {
        if (chance(50)) {
            String repl = switch (rnd.nextInt(4)) {
                case 0 -> "\"<%0>\"";
                case 1 -> "\"\"";
                case 2 -> "{a = \"A\", e = 1, l = false}";
                default -> "function(c) return (c):upper() end";
            };
            return pick(PATTERNS) + ", " + repl + (chance(30) ? ", " + pick(new String[]{"1", "2", "0"}) : "");
        }
        String repl = switch (rnd.nextInt(4)) {
            case 0 -> "\"%1\"";
            case 1 -> "\"[%1|%0]\"";
            case 2 -> "{Hello = \"Bye\", a = 2}";
            default -> "function(c, d) return tostring(c) .. tostring(d) end";
        };
        return pick(CAPTURE_PATTERNS) + ", " + repl;
    }

    private String format(int d) {
        StringBuilder fmt = new StringBuilder();
        List<String> args = new ArrayList<>();
        int n = 1 + rnd.nextInt(3);
        for (int k = 0; k < n; k++) {
            if (chance(50)) fmt.append(pick(new String[]{"x", " ", "[", "]", "=", "%%"}));
            switch (rnd.nextInt(12)) {
                case 0 -> { fmt.append("%d"); args.add(intExpr(d).code); }
                case 1 -> { fmt.append(pick(new String[]{"%5d", "%-5d|", "%+d", "%05d"})); args.add(intExpr(d).code); }
                case 2 -> { fmt.append(pick(new String[]{"%x", "%X", "%08x"})); args.add(intExpr(d).code); }
                case 3 -> { fmt.append(pick(new String[]{"%5.2f", "%.3f", "%f", "%.0f"})); args.add(safeText(numExpr(d))); }
                case 4 -> { fmt.append(pick(new String[]{"%g", "%.3g", "%10.4g", "%e", "%.2e"})); args.add(safeText(numExpr(d))); }
                case 5 -> {
                    // with a width or precision, %s refuses strings with zeros
                    fmt.append(pick(new String[]{"%10s", "%-8s|", "%.2s"}));
                    args.add("(string.gsub(" + strExpr(d).code + ", \"\\0\", \"@\"))");
                }
                case 10 -> { fmt.append("%s"); args.add(strExpr(d).code); }
                case 6 -> { fmt.append("%q"); args.add(strExpr(d).code); }
                case 7 -> { fmt.append("%q"); args.add(intExpr(d).code); }
                case 8 -> { fmt.append("%s"); args.add(intExpr(d).code); }
                case 9 -> { fmt.append("%s"); args.add(safeText(numExpr(d))); }
                default -> { fmt.append("%i"); args.add(intExpr(d).code); }
            }
        }
        return "string.format(\"" + fmt + "\"" + (args.isEmpty() ? "" : ", " + String.join(", ", args)) + ")";
    }

    private Expr boolExpr(int d) {
        if (d <= 0 || chance(15)) {
            Var v = someVar(Kind.BOOL);
            if (v != null && chance(60)) return Expr.of(v.name);
            return Expr.of(chance(50) ? "true" : "false");
        }
        switch (rnd.nextInt(10)) {
            case 0, 1, 2 -> {
                return Expr.of(paren(numExpr(d - 1)) + " " + pick(new String[]{"<", "<=", ">", ">=", "==", "~="}) + " " + paren(numExpr(d - 1)));
            }
            case 3 -> {
                return Expr.of(paren(strExpr(d - 1)) + " " + pick(new String[]{"<", "<=", ">", ">=", "==", "~="}) + " " + paren(strExpr(d - 1)));
            }
            case 4 -> {
                return Expr.of(paren(anyExpr(d - 1)) + " " + pick(new String[]{"==", "~="}) + " " + paren(anyExpr(d - 1)));
            }
            case 5 -> {
                return Expr.of("not " + paren(boolExpr(d - 1)));
            }
            case 6 -> {
                return Expr.of(paren(boolExpr(d - 1)) + " " + pick(new String[]{"and", "or"}) + " " + paren(boolExpr(d - 1)));
            }
            case 7 -> {
                return Expr.of("math.type(" + numExpr(d - 1).code + ") == \"float\"");
            }
            case 8 -> {
                Expr e = numExpr(d - 1);
                return Expr.of("(" + e.code + ") ~= (" + e.code + ")");
            }
            default -> {
                Expr o = objCompare();
                return o != null ? o : boolExpr(0);
            }
        }
    }

    private Expr objCompare() {
        Var a = someVar(Kind.OBJ);
        if (a == null) return null;
        List<Var> same = new ArrayList<>();
        for (Var v : visible(Kind.OBJ)) if (v.cls == a.cls) same.add(v);
        Var b = same.get(rnd.nextInt(same.size()));
        List<String> ops = new ArrayList<>(List.of("==", "~="));
        if (a.cls.lt) ops.add("<");
        if (a.cls.lt) ops.add(">");
        if (a.cls.le || a.cls.lt) ops.add("<=");
        if (a.cls.le || a.cls.lt) ops.add(">=");
        return Expr.of(a.name + " " + ops.get(rnd.nextInt(ops.size())) + " " + b.name);
    }

    /** Any value (for equality, logical operators and show): never an address when printed through show. */
    private Expr anyExpr(int d) {
        return switch (rnd.nextInt(7)) {
            case 0 -> intExpr(d);
            case 1 -> numExpr(d);
            case 2 -> strExpr(d);
            case 3 -> boolExpr(d);
            case 4 -> Expr.of("nil");
            case 5 -> {
                Var v = someVar(chance(50) ? Kind.SEQ : Kind.OBJ);
                yield v != null ? Expr.of(v.name) : Expr.of(pick(NUMSTR_LITERALS));
            }
            default -> new Expr(paren(anyExpr(d - 1)) + " " + pick(new String[]{"and", "or"}) + " " + paren(anyExpr(d - 1)), true);
        };
    }

    private Var objWith(java.util.function.Predicate<ObjClass> p) {
        List<Var> ok = new ArrayList<>();
        for (Var v : visible(Kind.OBJ)) if (p.test(v.cls)) ok.add(v);
        return ok.isEmpty() ? null : ok.get(rnd.nextInt(ok.size()));
    }

    private Expr exprOf(Kind k, int d) {
        return switch (k) {
            case INT -> intExpr(d);
            case NUM -> numExpr(d);
            case STR -> strExpr(d);
            default -> boolExpr(d);
        };
    }

    /** Text for storing into a variable of kind {@code k}: NaN replaced, strings clipped. */
    private String storable(Kind k, int d) {
        Expr e = exprOf(k, d);
        if (k == Kind.STR) return "clip(" + e.code + ")";
        if (k == Kind.NUM) return safeText(e);
        return e.code;
    }

    private String show(Expr e) {
        return "show(" + e.code + ")";
    }

    // ------------------------------------------------------------------ statements

    private Node statement(int depth) {
        budget--;
        int roll = rnd.nextInt(100);
        if (roll < 14) return declareScalar();
        if (roll < 22) return assign();
        if (roll < 40) return print();
        if (roll < 44 && depth < 3) return ifStatement(depth);
        if (roll < 48 && depth < 3 && loopDepth < 2) return loop(depth);
        if (roll < 52) return seqStatement(depth);
        if (roll < 57) return objStatement();
        if (roll < 62 && depth < 2) return functionStatement(depth);
        if (roll < 66) return closureStatement();
        if (roll < 70) return varargStatement();
        if (roll < 84) return Node.line(errorStatement(false));
        if (roll < 90) return libPrint();
        if (roll < 93) return globalStatement(depth);
        if (roll < 96 && depth < 3) return doBlock(depth);
        return swap();
    }

    private List<Node> block(int depth, int max) {
        push();
        List<Node> out = new ArrayList<>();
        int n = 1 + rnd.nextInt(max);
        for (int k = 0; k < n; k++) out.add(statement(depth + 1));
        pop();
        return out;
    }

    private Node declareScalar() {
        Kind k = pick(new Kind[]{Kind.INT, Kind.INT, Kind.NUM, Kind.NUM, Kind.STR, Kind.STR, Kind.BOOL});
        String value = storable(k, 3);
        String name = fresh(switch (k) {
            case INT -> "i";
            case NUM -> "n";
            case STR -> "s";
            default -> "b";
        });
        declare(name, k, false, null);
        return Node.line("local " + name + " = " + value + "  print(\"" + name + "\", show(" + name + "))");
    }

    private Node assign() {
        List<Var> candidates = new ArrayList<>();
        for (Kind k : new Kind[]{Kind.INT, Kind.NUM, Kind.STR, Kind.BOOL}) {
            for (Var v : visible(k)) if (!v.readonly) candidates.add(v);
        }
        if (candidates.isEmpty()) return declareScalar();
        Var v = candidates.get(rnd.nextInt(candidates.size()));
        return Node.line(v.name + " = " + storable(v.kind, 3) + "  print(\"" + v.name + "\", show(" + v.name + "))");
    }

    private Node swap() {
        Kind k = pick(new Kind[]{Kind.INT, Kind.NUM, Kind.STR});
        List<Var> vs = new ArrayList<>();
        for (Var v : visible(k)) if (!v.readonly) vs.add(v);
        if (vs.size() < 2) return print();
        Var a = vs.get(rnd.nextInt(vs.size())), b = vs.get(rnd.nextInt(vs.size()));
        return Node.line(a.name + ", " + b.name + " = " + b.name + ", " + a.name + "  print(show(" + a.name + "), show(" + b.name + "))");
    }

    private Node print() {
        int n = 1 + rnd.nextInt(4);
        List<String> parts = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            switch (rnd.nextInt(6)) {
                case 0 -> parts.add(intExpr(3).code);
                case 1 -> parts.add(show(numExpr(3)));
                case 2 -> parts.add(strExpr(3).code);
                case 3 -> parts.add(boolExpr(3).code);
                case 4 -> parts.add(show(anyExpr(2)));
                default -> parts.add("math.type(" + numExpr(2).code + ")");
            }
        }
        return Node.line("print(" + String.join(", ", parts) + ")");
    }

    private Node ifStatement(int depth) {
        Node n = new Node(null, "end", false);
        Node first = new Node("if " + boolExpr(2).code + " then", null, true);
        first.children.addAll(block(depth, 3));
        first.children.add(0, Node.line("print(\"then\")"));
        n.add(first);
        if (chance(40)) {
            Node elif = new Node("elseif " + boolExpr(2).code + " then", null, true);
            elif.children.addAll(block(depth, 2));
            elif.children.add(0, Node.line("print(\"elseif\")"));
            n.add(elif);
        }
        if (chance(60)) {
            Node els = new Node("else", null, true);
            els.children.addAll(block(depth, 3));
            els.children.add(0, Node.line("print(\"else\")"));
            n.add(els);
        }
        // clause heads sit at the if's indentation: render them one level up by giving the
        // if node no head; the clause nodes carry the keywords
        return n;
    }

    private Node loop(int depth) {
        loopDepth++;
        try {
            switch (rnd.nextInt(5)) {
                case 0 -> {
                    String i = fresh("k");
                    String bounds = pick(new String[]{"1, 3", "3, 1, -1", "0, 6, 2", "-2, 1", "1, 0", "5, 5",
                            "0.5, 2, 0.5", "1, 2.5", "3.0, 1, -1", "\"1\", 2", "1, 3, 1.5", "2, -1, -1.5"});
                    Node n = Node.block("for " + i + " = " + bounds + " do", "end");
                    push();
                    declare(i, bounds.contains(".") || bounds.contains("\"") ? Kind.NUM : Kind.INT, true, null);
                    n.add(Node.line("print(\"for\", show(" + i + "))"));
                    n.children.addAll(block(depth, 3));
                    pop();
                    return n;
                }
                case 1 -> {
                    String c = fresh("w");
                    Node n = Node.block("do local " + c + " = 0 while " + c + " < " + (1 + rnd.nextInt(4)) + " do " + c + " = " + c + " + 1", "end end");
                    push();
                    declare(c, Kind.INT, true, null);
                    n.add(Node.line("print(\"while\", " + c + ")"));
                    n.children.addAll(block(depth, 3));
                    pop();
                    return n;
                }
                case 2 -> {
                    String c = fresh("r");
                    int max = 1 + rnd.nextInt(4);
                    Node n = Node.block("do local " + c + " = 0 repeat " + c + " = " + c + " + 1", "until " + c + " >= " + max + " end");
                    push();
                    declare(c, Kind.INT, true, null);
                    n.add(Node.line("print(\"repeat\", " + c + ")"));
                    n.children.addAll(block(depth, 3));
                    if (chance(20)) n.add(Node.line("if " + c + " == 2 then break end"));
                    pop();
                    return n;
                }
                default -> {
                    Var t = someVar(Kind.SEQ);
                    if (t == null) return seqDeclare();
                    String k = fresh("k"), v = fresh("v");
                    Node n = Node.block("for " + k + ", " + v + " in ipairs(" + t.name + ") do", "end");
                    push();
                    declare(k, Kind.INT, true, null);
                    declare(v, Kind.INT, true, null);
                    t.iterated++;
                    n.add(Node.line("print(\"ipairs\", " + k + ", " + v + ")"));
                    n.children.addAll(block(depth, 2));
                    if (chance(20)) n.add(Node.line("if " + k + " >= 3 then break end"));
                    t.iterated--;
                    pop();
                    return n;
                }
            }
        } finally {
            loopDepth--;
        }
    }

    private Node seqDeclare() {
        String name = fresh("t");
        int n = rnd.nextInt(6);
        List<String> items = new ArrayList<>();
        for (int k = 0; k < n; k++) items.add(intExpr(1).code);
        declare(name, Kind.SEQ, false, null);
        return Node.line("local " + name + " = {" + String.join(", ", items) + "}  print(#" + name + ", table.concat(" + name + ", \",\"))");
    }

    private Node seqStatement(int depth) {
        Var t = someVar(Kind.SEQ);
        if (t == null || chance(15)) return seqDeclare();
        boolean growable = t.iterated == 0 && t.funcLevel == funcLevel;
        String n = t.name;
        String line = switch (rnd.nextInt(growable ? 12 : 6)) {
            case 0 -> "print(#" + n + ", table.concat(" + n + ", " + pick(new String[]{"\",\"", "\"\"", "\" \""}) + "))";
            case 1 -> "table.sort(" + n + ")  print(table.concat(" + n + ", \" \"))";
            case 2 -> "table.sort(" + n + ", function(a, b) return a > b end)  print(table.unpack(" + n + "))";
            case 3 -> "print(table.unpack(" + n + ", " + pick(new String[]{"1", "2", "-1", "0"}) + ", " + pick(new String[]{"2", "3", "#" + n, "1"}) + "))";
            case 4 -> "print(select(\"#\", table.unpack(" + n + ")), " + n + "[1], " + n + "[#" + n + "])";
            case 5 -> "if #" + n + " > 0 then " + n + "[1] = " + intExpr(2).code + " end  print(" + n + "[1])";
            case 6, 7 -> "table.insert(" + n + ", " + intExpr(2).code + ")  print(#" + n + ")";
            case 8 -> "table.insert(" + n + ", " + pick(new String[]{"1", "#" + n + " + 1", "math.max(1, #" + n + ")"}) + ", " + intExpr(2).code + ")  print(table.concat(" + n + ", \",\"))";
            case 9 -> "print(table.remove(" + n + "), #" + n + ")";
            case 10 -> "print(table.remove(" + n + ", " + pick(new String[]{"1", "#" + n, "#" + n + " + 1"}) + "), #" + n + ")";
            default -> n + "[#" + n + " + 1] = " + intExpr(2).code + "  print(#" + n + ", " + n + "[#" + n + "])";
        };
        return Node.line(line);
    }

    private Node objStatement() {
        Var o = someVar(Kind.OBJ);
        if (o == null || chance(20)) return objDeclare();
        ObjClass c = o.cls;
        List<String> options = new ArrayList<>();
        options.add("print(show(" + o.name + "), rawget(" + o.name + ", \"v\"), rawequal(" + o.name + ", " + o.name + "))");
        options.add(o.name + ".v = " + o.name + ".v + " + smallInt() + "  print(" + o.name + ".v)");
        if (c.add) options.add("print(show(" + o.name + " + " + intExpr(1).code + "), show(" + intLeaf().code + " + " + o.name + "))");
        if (c.len) options.add("print(#" + o.name + ")");
        if (c.call) options.add("print(" + o.name + "(" + intExpr(1).code + ", " + smallInt() + ", nil))");
        if (c.concat) options.add("print(" + o.name + " .. " + strLeaf().code + ", " + intLeaf().code + " .. " + o.name + ")");
        if (c.tostring) options.add("print(tostring(" + o.name + "), string.format(\"%s|%5s\", " + o.name + ", \"x\"))");
        if (c.index == 1) options.add("print(" + o.name + ".greet, " + o.name + ".k1, " + o.name + ".missing)");
        if (c.index == 2) options.add("print(" + o.name + ".abc, " + o.name + "[" + smallInt() + "])");
        if (c.newindex) options.add(o.name + ".fresh = " + intExpr(1).code + "  print(rawget(" + o.name + ", \"fresh\"), rawget(" + o.name + ", \"shadow\"))");
        Expr cmp = objCompare();
        if (cmp != null) options.add("print(" + cmp.code + ")");
        return Node.line(options.get(rnd.nextInt(options.size())));
    }

    private Node objDeclare() {
        List<Var> classes = visibleClasses();
        ObjClass cls;
        Node out;
        if (classes.isEmpty() || chance(35)) {
            cls = new ObjClass(fresh("mt"), rnd);
            List<String> fields = new ArrayList<>();
            if (cls.add) fields.add("__add = function(a, b) local x = type(a) == \"table\" and a.v or a local y = type(b) == \"table\" and b.v or b return x + y end");
            if (cls.eq) fields.add("__eq = function(a, b) return a.v == b.v end");
            if (cls.lt) fields.add("__lt = function(a, b) return a.v < b.v end");
            if (cls.le) fields.add("__le = function(a, b) return a.v <= b.v end");
            if (cls.concat) fields.add("__concat = function(a, b) local x = type(a) == \"table\" and \"<\" .. a.v .. \">\" or a local y = type(b) == \"table\" and \"<\" .. b.v .. \">\" or b return x .. y end");
            if (cls.len) fields.add("__len = function(a) return a.v * 2 end");
            if (cls.call) fields.add("__call = function(self, x, ...) return self.v + x, select(\"#\", ...) end");
            if (cls.tostring) fields.add("__tostring = function(a) return \"obj\" .. a.v end");
            if (cls.index == 1) fields.add("__index = {greet = \"hi\", k1 = 10}");
            if (cls.index == 2) fields.add("__index = function(t, k) return tostring(k) .. \"!\" end");
            if (cls.newindex) fields.add("__newindex = function(t, k, v) rawset(t, \"shadow\", v) rawset(t, k, v) end");
            out = new Node(null, null, false);
            out.add(Node.line("local " + cls.mtName + " = {" + String.join(", ", fields) + "}"));
            declare(cls.mtName, Kind.CLASS, true, cls);
        } else {
            cls = classes.get(rnd.nextInt(classes.size())).cls;
            out = new Node(null, null, false);
        }
        String name = fresh("o");
        out.add(Node.line("local " + name + " = setmetatable({v = " + rnd.nextInt(-3, 10) + "}, " + cls.mtName + ")  print(" + name + ".v)"));
        declare(name, Kind.OBJ, false, cls);
        return out;
    }

    private List<Var> visibleClasses() {
        return visible(Kind.CLASS);
    }

    private Node functionStatement(int depth) {
        String name = fresh("f");
        String a = fresh("a"), b = fresh("b");
        Node n = Node.block("local function " + name + "(" + a + ", " + b + ")", null);
        push();
        funcLevel++;
        int savedLoops = loopDepth;
        loopDepth = 2;
        declare(a, Kind.INT, false, null);
        declare(b, Kind.INT, false, null);
        n.add(Node.line("print(\"in " + name + "\", " + a + ", " + b + ")"));
        n.children.addAll(block(depth, 3));
        String ret = "return " + intExpr(2).code + (chance(40) ? ", " + strExpr(1).code : "") + " end";
        loopDepth = savedLoops;
        funcLevel--;
        pop();
        Node wrap = new Node(null, null, false);
        Node fn = new Node(n.head, ret, true);
        fn.children.addAll(n.children);
        wrap.add(fn);
        wrap.add(Node.line("print(" + name + "(" + intExpr(1).code + ", " + intExpr(1).code + "))"));
        declare(name, Kind.FUN, true, null);
        return wrap;
    }

    private Node closureStatement() {
        Var c = someVar(Kind.CNT);
        if (c != null && chance(60)) {
            return Node.line("print(" + c.name + "(" + smallInt() + "), " + c.name + "(" + smallInt() + "))");
        }
        if (chance(50)) {
            String mk = fresh("mk"), cnt = fresh("c");
            Node n = new Node(null, null, false);
            n.add(Node.line("local function " + mk + "(start) local acc = start return function(d) acc = acc + d return acc end end"));
            n.add(Node.line("local " + cnt + " = " + mk + "(" + intExpr(1).code + ")  print(" + cnt + "(1), " + cnt + "(" + smallInt() + "))"));
            declare(cnt, Kind.CNT, true, null);
            return n;
        }
        String fs = fresh("fs"), i = fresh("j");
        return Node.line("do local " + fs + " = {} for " + i + " = 1, 3 do local m = " + i + " * " + smallInt() + " "
                + fs + "[" + i + "] = function(x) m = m + (x or 0) return " + i + ", m end end print(" + fs + "[1](), "
                + fs + "[3](2), " + fs + "[3](1), " + fs + "[2]()) end");
    }

    private Node varargStatement() {
        return Node.line(switch (rnd.nextInt(8)) {
            case 0 -> "do local function va(...) return select(\"#\", ...), ... end print(va(" + argList() + ")) end";
            case 1 -> "do local function va(...) local t = {...} return #t, select(\"#\", ...) end print(va(" + argList() + ")) end";
            case 2 -> "print(select(" + pick(new String[]{"1", "2", "-1", "-2", "\"#\""}) + ", " + argList(2) + "))";
            case 3 -> "print(table.pack(" + argList() + ").n)";
            case 4 -> "do local function va(a, ...) local b, c = ... return a, c, select(\"#\", ...) end print(va(" + argList() + ")) end";
            case 5 -> "do local function two() return 1, 2 end print(two(), two()) print((two())) local t = {two(), two()} print(#t) end";
            case 6 -> "do local function va(...) return ... end print(va(" + argList() + "), va(" + argList() + ")) end";
            default -> "print(string.byte(" + strLeaf().code + ", " + pick(new String[]{"1, -1", "2, 4", "-3, -1", "1, 0", "10, 20"}) + "))";
        });
    }

    private String argList() {
        return argList(0);
    }

    private String argList(int min) {
        int n = min + rnd.nextInt(5);
        List<String> args = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            args.add(switch (rnd.nextInt(4)) {
                case 0 -> intLeaf().code;
                case 1 -> "nil";
                case 2 -> strLeaf().code;
                default -> boolExpr(0).code;
            });
        }
        return String.join(", ", args);
    }

    private Node libPrint() {
        String s = strExpr(2).code;
        return Node.line(switch (rnd.nextInt(9)) {
            case 0 -> "print(string.find(" + s + ", " + pick(PATTERNS) + "))";
            case 1 -> "print(string.find(" + s + ", " + pick(CAPTURE_PATTERNS) + ", " + smallInt() + "))";
            case 2 -> "print(string.find(" + s + ", " + pick(new String[]{"\".\"", "\"%d\"", "\"a\"", "\"(\""}) + ", 1, true))";
            case 3 -> "print(string.match(" + s + ", " + pick(CAPTURE_PATTERNS) + "))";
            case 4 -> "print(string.gsub(" + s + ", " + gsubArgs() + "))";
            case 5 -> "print(math.tointeger(" + safeText(numExpr(2)) + "), math.type(" + numExpr(2).code + "))";
            case 6 -> "print(show(math.floor(" + numExpr(2).code + ")), show(math.ceil(" + numExpr(2).code + ")), show(math.fmod(" + intExpr(2).code + ", " + pick(new String[]{"3", "(-3)", "(-1)", "7"}) + ")))";
            case 7 -> "print(" + format(2) + ")";
            default -> "do local n = 0 for w in string.gmatch(" + s + ", " + pick(PATTERNS) + ") do n = n + 1 if n > 5 then break end print(\"gm\", w) end end";
        });
    }

    private Node globalStatement(int depth) {
        List<Var> globals = new ArrayList<>();
        for (Var v : scopes.get(0)) if (v.name.startsWith("G") && v.kind == Kind.INT) globals.add(v);
        boolean topLevel = depth == 0 && funcLevel == 0 && loopDepth == 0;
        if (globals.isEmpty() && !topLevel) return print();
        if (globals.isEmpty() || (topLevel && chance(40))) {
            String value = intExpr(2).code;
            String name = fresh("G");
            // set by a top-level statement, so it is set for whatever follows
            scopes.get(0).add(new Var(name, Kind.INT, false, 0, null));
            return Node.line(name + " = " + value + "  print(\"" + name + "\", " + name + ")");
        }
        Var g = globals.get(rnd.nextInt(globals.size()));
        return Node.line(g.name + " = " + g.name + " + " + intExpr(1).code + "  print(" + g.name + ", _ENV." + g.name + ", _G." + g.name + ")");
    }

    private Node doBlock(int depth) {
        Node n = Node.block("do", "end");
        n.children.addAll(block(depth, 3));
        return n;
    }

    // ------------------------------------------------------------------ errors

    /** A statement that raises an error: inside try() unless {@code uncaught}. */
    private String errorStatement(boolean uncaught) {
        String body = errorBody();
        // lua.c prints an uncaught error object through its __tostring; the API does not run metamethods
        while (uncaught && (body.contains("__tostring") || avoid.contains(Feature.UNCAUGHT_ERROR_NIL)
                && (body.equals("error(nil)") || body.equals("error()")))) {
            body = errorBody();
        }
        if (uncaught) return "do " + body + " end";
        return "try(function() " + body + " end)";
    }

    private String anyVarName() {
        Kind k = pick(new Kind[]{Kind.INT, Kind.NUM, Kind.STR, Kind.BOOL, Kind.SEQ, Kind.OBJ});
        Var v = someVar(k);
        return v != null ? v.name : "undefinedGlobal";
    }

    /** A variable that never holds a string (a numeric string would make arithmetic succeed). */
    private String anyNonStringVarName() {
        Var v = someVar(pick(new Kind[]{Kind.INT, Kind.NUM, Kind.BOOL, Kind.SEQ, Kind.OBJ}));
        return v != null ? v.name : "undefinedGlobal";
    }

    private String errorBody() {
        String op = pick(new String[]{"+", "-", "*", "/", "%", "^", "//"});
        return switch (rnd.nextInt(30)) {
            case 0 -> "local z return z " + op + " 1";
            case 1 -> "return undefinedGlobal " + op + " " + intLeaf().code;
            case 2 -> "local t = {} return " + intLeaf().code + " " + op + " t.field";
            case 3 -> "return " + (avoid.contains(Feature.NUMSTR_ARITH) ? anyNonStringVarName() : anyVarName()) + " " + op + " " + pick(avoid.contains(Feature.NUMSTR_ARITH)
                    ? new String[]{"1", "{}", "true", "\"x\""} : new String[]{"1", "{}", "true", "\"x\"", "\"5\""});
            case 4 -> pick(new String[]{"undefinedFunc()", "local f f()", "local t = {} t.method()", "local t = {} t:method()",
                    "string.nope()", "(\"x\"):nope()", "local n = 5 n()", "return math.pi()"});
            case 5 -> anyVarName() + "(" + argList() + ")";
            case 6 -> pick(new String[]{"local n return n.x", "return undefinedGlobal.x", "local t = {} return t.a.b",
                    "local n n[1] = 2", "local t = {} t.a.b = 1", "return (nil).x", "local s = \"abc\" return s.x.y"});
            case 7 -> "return " + anyVarName() + ".field.deeper";
            case 8 -> pick(new String[]{"error('msg')", "error('msg', 0)", "error('msg', 1)", "error('msg', 2)", "error({})",
                    "error(nil)", "error(42)", "error(1.5)", "error(true)", "error()",
                    "error(setmetatable({}, {__tostring = function() return 'custom' end}))", "error('multi\\nline')"});
            case 9 -> "return " + paren(intExpr(2)) + " " + pick(avoid.contains(Feature.INT_MOD_ZERO) ? new String[]{"//"} : new String[]{"//", "%"}) + " " + pick(new String[]{"0", "(1 - 1)", "(" + intLeaf().code + " & 0)"});
            case 10 -> "return " + pick(avoid.contains(Feature.NUMSTR_BITWISE_NOINT)
                    ? new String[]{"1.5", "2^64", "\"abc\"", "{}", "math.huge", "(0/0)", "-0.5"}
                    : new String[]{"1.5", "2^64", "\"3.5\"", "\"abc\"", "{}", "math.huge", "(0/0)", "-0.5"})
                    + " " + pick(new String[]{"|", "&", "~", "<<", ">>"}) + " " + intLeaf().code;
            case 11 -> "return " + intLeaf().code + " " + pick(new String[]{"|", "&", "<<"}) + " " + safeText(numExpr(1));
            case 12 -> "return " + pick(new String[]{"1 < \"2\"", "\"a\" <= 1", "{} < {}", "nil > 1", "true < false",
                    "print < print", "2 >= {}", "\"10\" < 2"});
            case 13 -> {
                Var o = someVar(Kind.OBJ);
                yield o != null ? "return " + o.name + " " + pick(new String[]{"<", "<=", "+", "..", "*"}) + " " + pick(new String[]{"1", "\"s\"", "{}", o.name}) : "return {} .. \"x\"";
            }
            case 14 -> "return \"a\" .. " + pick(new String[]{"{}", "nil", "true", "print", anyVarName()});
            case 15 -> "local t = {} return \"x\" .. t";
            case 16 -> "return #" + pick(new String[]{"5", "nil", "true", anyVarName(), "undefinedGlobal"});
            case 17 -> pick(new String[]{"return string.rep()", "return (\"x\"):rep({})", "return string.sub()",
                    "return string.char(-1)", "return string.char(256)", "return string.format(\"%d\", 1.5)",
                    "return string.format(\"%d\", \"x\")", "return string.format(\"%y\", 1)", "return string.format(\"%d\")",
                    "return string.byte(\"abc\", {})", "return (\"abc\"):upper(nil) .. nil", "return string.rep(\"x\", 1.5)",
                    "return string.format(\"%5.2f\", \"abc\")", "return string.format(\"%s %s\", 1)"});
            case 18 -> pick(new String[]{"local t = {1, 2} table.insert(t, 5, 1)", "local t = {} table.insert(t, 1, 2, 3)",
                    "return table.concat({1, {}, 3})", "local t = {1} return table.remove(t, 5)", "return table.concat({}, 1, 2, 3)",
                    "table.insert(nil, 1)", "return table.unpack({}, 1, 1e8)", "table.sort({3, 1, \"x\"})",
                    "return table.concat({1, 2}, \",\", 1, 3)", "table.insert({}, 1.5, 1)"});
            case 19 -> pick(new String[]{"return math.floor(\"x\")", "return math.floor(nil)", "return math.fmod(1, 0)",
                    "return math.max()", "return math.tointeger({})", "return math.abs()", "return math.fmod(1)",
                    "return math.min(1, nil)", "return math.tointeger(\"8\")", "return math.type()", "return math.fmod(5.5, 0)"});
            case 20 -> pick(new String[]{"return setmetatable(1, {})", "return tostring()", "return ipairs()", "return select(0, 1)",
                    "return select(-5, 1)", "return rawlen(5)", "return rawget(1)", "return tonumber(\"10\", 99)",
                    "return tonumber(\"zz\", 36), tonumber(\"8\", 8)", "return setmetatable({}, 1)", "return rawequal(1)"});
            case 21 -> pick(new String[]{"return string.find(\"a\", \"(\")", "return (\"a\"):gsub(\"%\", \"\")",
                    "return (\"abc\"):gsub(\"(a)\", \"%2\")", "return string.match(\"x\", \"[a\")", "return string.find(\"abc\", \"%g\")",
                    "return string.gsub(\"abc\", \"\", \"-\")", "return string.find(\"abc\", \"b\", 10)", "return string.rep(\"ab\", 3, 5)"});
            case 22 -> "return tostring(setmetatable({}, {__tostring = function() return "
                    + (avoid.contains(Feature.TOSTRING_NONSTRING) ? "'fine'" : pick(new String[]{"1", "nil", "{}", "true"})) + " end}))";
            case 23 -> "local o = setmetatable({}, {__index = function(t, k) error(\"no field \" .. k) end}) return o.x";
            case 24 -> "local o = setmetatable({}, {__newindex = function(t, k, v) error(\"read-only\", 2) end}) o.x = 1";
            case 25 -> avoid.contains(Feature.CALL_NONFUNCTION) ? "local o = setmetatable({}, {}) return o()"
                    : "local o = setmetatable({}, {__call = 5}) return o()";
            case 26 -> "local o = setmetatable({}, {__index = setmetatable({}, {__index = function(t, k) return k .. \"?\" end})}) return o.deep, o[1]";
            case 27 -> "return " + paren(intExpr(2)) + ", " + strExpr(2).code + ", " + show(numExpr(2));
            case 28 -> "local a = " + intExpr(1).code + " return a .. \"\" + 1";
            default -> "local up = " + intLeaf().code + " local function g() return up.x end return g()";
        };
    }
}
