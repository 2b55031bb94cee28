package dev.luavm.compiler;

import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.ExpDesc.Kind;
import dev.luavm.compiler.FuncState.BlockCnt;
import dev.luavm.value.EventNames;
import dev.luavm.value.LuaString;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;

/**
 * The parser half of PUC's {@code lparser.c} (scopes, variables, labels and gotos, the order in
 * which code is generated), driven by the events of the {@link EventParser}: a rule starts, a
 * token is read, a rule ends. It keeps no tree: each active rule has a {@link RuleFrame} on a
 * stack (the statements' in {@link StatementRules}, the expressions' in
 * {@link ExpressionRules}) that generates code through {@link FuncState} as its parts arrive,
 * exactly where PUC's recursive descent would, so what a compilation holds is its output and a
 * frame per level of nesting.
 *
 * <p>PUC generates code while reading tokens, and the line of an instruction is the line of the
 * last token read ({@link #lastLine}, set as each token is read); the token after it, the
 * parser's current token, is the one compile errors are "near". A frame that must generate code
 * before one of its tokens is read does it in {@link RuleFrame#before}, or when the rule
 * starts, before any of its tokens.
 *
 * <p>The source is known to be valid Lua nested at most 200 levels deep (the
 * {@link SyntaxChecker} ran first), so the frame stack is bounded; flat chains (operator
 * chains, suffix chains, statement lists, constructors) are compiled as they stream past.
 */
final class Compiler {
    static final int LUA_MULTRET = -1;
    /** Maximum number of local variables per function (PUC's MAXVARS). */
    static final int MAXVARS = 200;

    private final CompileErrors errors;
    private final LuaString source;
    /** line of the last token read, given to new instructions (PUC's lastline) */
    int lastLine = 1;
    FuncState fs;
    /**
     * Active labels and pending gotos of all open functions (the sizes of PUC's Dyndata lists,
     * which bound them); the entries themselves live in their blocks, found by name.
     */
    private int activeLabels;
    private int activeGotos;
    /** pays for the compilation's work and heap */
    final CompileAccount account;
    /** Names the compiler writes itself; the lexer interns names to these very objects. */
    static final List<String> BUILTIN_NAMES = List.of("_ENV", "self", "break");
    /**
     * One LuaString per distinct string constant of the chunk, so a field name written in one
     * function ({@code {x = ...}}) and read in another ({@code b.x}) is the same object and the
     * table probe matches by identity instead of comparing bytes.
     */
    private final HashMap<LuaString, LuaString> strings = new HashMap<>();
    /**
     * Each interned name's string constant, found by the name's identity (names are interned
     * by the lexer), so a name used as a key again and again is made and hashed once.
     */
    private final IdentityHashMap<String, LuaString> nameStrings = new IdentityHashMap<>();
    /** constant keys to the index they last got in any function (PUC's ls->h) */
    final Map<ConstantKey, Integer> constantScanner = new HashMap<>();
    /** the parser whose events drive this compiler (for its current token) */
    private EventParser parser;
    /**
     * The frames of the active rules, innermost last ({@link #depth} of them; the innermost is
     * also {@link #top}): a bare array, as every token and rule of the parse goes through it.
     */
    private RuleFrame[] frames = new RuleFrame[64];
    private int depth;
    private RuleFrame top;
    /** a reusable left-associative level's frame per nesting depth (see {@link ExpressionRules.LeftAssoc}) */
    private ExpressionRules.LeftAssoc[] leftAssocs = new ExpressionRules.LeftAssoc[64];
    /** the main function, once compiled */
    private Prototype main;

    /** A label or a pending goto. */
    static final class LabelDesc {
        final String name;
        int pc;
        final int line;
        int nactvar;
        /** a goto closed by a label (it stays in its block's list until the block ends) */
        boolean closed;

        LabelDesc(String name, int pc, int line, int nactvar) {
            this.name = name;
            this.pc = pc;
            this.line = line;
            this.nactvar = nactvar;
        }
    }

    Compiler(CompileErrors errors, String chunkName, CompileAccount account) {
        this.errors = errors;
        this.account = account;
        this.source = CompileErrors.latin1(chunkName);
        top = frames[depth++] = new ChunkRoot(this);
    }

    void attach(EventParser p) {
        this.parser = p;
    }

    /** The compiled main function (after the parse has ended). */
    Prototype result() {
        assert main != null;
        return main;
    }

    // ------------------------------------------------------------------ parse events

    /** A rule starts: the frame of the rule around it makes the frame that compiles it. */
    void enter(ParserRuleContext ctx) {
        account.node();
        RuleFrame f = top.child(ctx);
        if (depth == frames.length) frames = java.util.Arrays.copyOf(frames, depth * 2);
        top = frames[depth++] = f;
        account.frames(depth);
        f.enter(ctx);
    }

    /** The frame of a left-associative level about to start (at the next nesting depth), its value going to {@code v}. */
    ExpressionRules.LeftAssoc leftAssoc(ExpDesc v) {
        if (depth >= leftAssocs.length) leftAssocs = java.util.Arrays.copyOf(leftAssocs, depth * 2);
        ExpressionRules.LeftAssoc f = leftAssocs[depth];
        if (f == null) return leftAssocs[depth] = new ExpressionRules.LeftAssoc(this, v);
        return f.reset(v);
    }

    /** Token {@code t} is about to be read. */
    void before(Token t) {
        top.before(t);
    }

    /** Token {@code t} has been read (PUC's luaX_next past it): later code gets its line. */
    void token(Token t) {
        if (t.getType() == Token.EOF) return; // PUC checks for the end, it does not read past it
        lastLine = t.getLine();
        top.token(t);
    }

    /** The innermost rule ends. */
    void exit(ParserRuleContext ctx) {
        RuleFrame f = top;
        frames[--depth] = null;
        top = frames[depth - 1];
        f.exit();
        if (!(f instanceof RuleFrame.Through)) top.childDone(f);
    }

    /** The frame below the whole chunk: it compiles the main function. */
    private static final class ChunkRoot extends RuleFrame {
        ChunkRoot(Compiler c) {
            super(c);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return new StatementRules.Chunk(c);
        }

        @Override
        void childDone(RuleFrame child) {
            c.main = ((StatementRules.Chunk) child).prototype;
        }
    }

    // ------------------------------------------------------------------ tokens and errors

    /** The token PUC would be looking at: the one after the last token read. */
    Token current() {
        return parser.getCurrentToken();
    }

    /** A syntax error near the current token (PUC's luaX_syntaxerror). */
    RuntimeException syntaxError(String msg) {
        Token tk = current();
        return errors.syntax(tk.getLine(), msg, LuaLexer.tokenText(tk.getType(), tk.getText()));
    }

    /** An error without "near" (PUC's semerror). */
    RuntimeException semError(String msg) {
        return errors.semantic(current().getLine(), msg);
    }

    void checkLimit(int v, int limit, String what) {
        if (v > limit) throw syntaxError(CompileErrors.limitMessage(fs.lineDefined, limit, what));
    }

    /** The interned name a NAME token carries. */
    static String name(Token t) {
        return (String) ((LuaToken) t).value;
    }

    /** The constant a STRING, INT or FLOAT token carries. */
    static Object value(Token t) {
        return ((LuaToken) t).value;
    }

    // ------------------------------------------------------------------ functions

    FuncState openFunc(int line) {
        FuncState f = new FuncState(fs, this, line);
        fs = f;
        enterBlock(new BlockCnt(), false);
        return f;
    }

    Prototype closeFunc() {
        FuncState f = fs;
        f.ret(0, 0); // final return
        leaveBlock();
        Prototype p = f.toPrototype(source);
        fs = f.prev;
        return p;
    }

    // ------------------------------------------------------------------ variables

    FuncState.LocVar getLocVar(FuncState f, int i) {
        return f.locVars.get(f.actVar(i));
    }

    void newLocalVar(String name) {
        fs.hold(CompileAccount.LOCAL_BYTES);
        fs.locVars.add(new FuncState.LocVar(name));
        checkLimit(fs.actVarCount() + 1, MAXVARS, "local variables");
        fs.pushActVar(fs.locVars.size() - 1);
    }

    void adjustLocalVars(int nvars) {
        fs.nactvar += nvars;
        for (; nvars > 0; nvars--) getLocVar(fs, fs.nactvar - nvars).startPc = fs.pc;
    }

    private void removeVars(int toLevel) {
        while (fs.nactvar > toLevel) {
            getLocVar(fs, --fs.nactvar).endPc = fs.pc;
            fs.popActVar();
        }
    }

    /** Names are interned by the lexer (and {@link #BUILTIN_NAMES}): compared by identity. */
    private int searchVar(FuncState f, String n) {
        account.scan(f.nactvar);
        for (int i = f.nactvar - 1; i >= 0; i--) {
            if (f.locVars.get(f.actVar(i)).name == n) return i;
        }
        return -1;
    }

    private static void markUpval(FuncState f, int level) {
        BlockCnt bl = f.bl;
        while (bl.nactvar > level) bl = bl.previous;
        bl.upval = true;
    }

    private int searchUpvalue(FuncState f, String n) {
        account.scan(f.upvalues.size());
        for (int i = 0; i < f.upvalues.size(); i++) {
            if (f.upvalues.get(i).name() == n) return i;
        }
        return -1;
    }

    private int newUpvalue(FuncState f, String name, ExpDesc v) {
        if (f.upvalues.size() + 1 > FuncState.MAXUPVAL) {
            throw syntaxError(CompileErrors.limitMessage(f.lineDefined, FuncState.MAXUPVAL, "upvalues"));
        }
        f.hold(CompileAccount.UPVALUE_BYTES);
        f.upvalues.add(new Prototype.UpvalueDesc(name, v.k == Kind.VLOCAL, v.info));
        return f.upvalues.size() - 1;
    }

    /** Finds {@code n} as a local, an upvalue, or (VVOID) a global, as PUC's singlevaraux. */
    private void singleVarAux(FuncState f, String n, ExpDesc var, boolean base) {
        if (f == null) {
            var.init(Kind.VVOID, 0); // global
            return;
        }
        int v = searchVar(f, n);
        if (v >= 0) {
            var.init(Kind.VLOCAL, v);
            if (!base) markUpval(f, v); // local will be used as an upvalue
            return;
        }
        int idx = searchUpvalue(f, n);
        if (idx < 0) {
            singleVarAux(f.prev, n, var, false);
            if (var.k == Kind.VVOID) return; // a global
            idx = newUpvalue(f, n, var);
        }
        var.init(Kind.VUPVAL, idx);
    }

    /** singlevar: NAME as a local, an upvalue or _ENV.name (after the NAME is read). */
    void singleVar(String n, ExpDesc var) {
        singleVarAux(fs, n, var, true);
        if (var.k == Kind.VVOID) {
            singleVarAux(fs, "_ENV", var, true);
            assert var.k != Kind.VVOID;
            ExpDesc key = stringConstant(n);
            fs.indexed(var, key);
        }
    }

    /** A name as a string constant (a field key, a global's name in _ENV). */
    ExpDesc stringConstant(String name) {
        LuaString s = nameStrings.get(name);
        if (s == null) {
            s = intern(LuaString.ofLatin1(name));
            account.hold(CompileAccount.NAME_ENTRY_BYTES);
            nameStrings.put(name, s);
        }
        return new ExpDesc(Kind.VK, fs.stringK(s));
    }

    // ------------------------------------------------------------------ blocks, labels, gotos

    void enterBlock(BlockCnt bl, boolean isLoop) {
        bl.isLoop = isLoop;
        bl.nactvar = fs.nactvar;
        bl.upval = false;
        bl.previous = fs.bl;
        fs.bl = bl;
        assert fs.freereg == fs.nactvar;
    }

    void leaveBlock() {
        BlockCnt bl = fs.bl;
        if (bl.previous != null && bl.upval) {
            // a 'jump to here' that closes upvalues
            int j = fs.jump();
            fs.patchClose(j, bl.nactvar);
            fs.patchToHere(j);
        }
        if (bl.isLoop) breakLabel(); // close pending breaks
        fs.bl = bl.previous;
        removeVars(bl.nactvar);
        assert bl.nactvar == fs.nactvar;
        fs.freereg = fs.nactvar; // free registers
        activeLabels -= bl.jumps.labelCount(); // remove local labels
        if (bl.previous != null) {
            moveGotosOut(bl);
        } else {
            LabelDesc first = bl.jumps.firstPending();
            if (first != null) undefGoto(first);
        }
    }

    private RuntimeException undefGoto(LabelDesc gt) {
        String msg = gt.name.equals("break")
            ? "<break> at line " + gt.line + " not inside a loop"
            : "no visible label '" + gt.name + "' for <goto> at line " + gt.line;
        throw semError(msg);
    }

    /** Pending gotos of a closed block become pending gotos of the enclosing block. */
    private void moveGotosOut(BlockCnt bl) {
        List<LabelDesc> pending = bl.jumps.gotos();
        account.scan(pending.size());
        for (LabelDesc gt : pending) {
            if (gt.closed) continue;
            if (gt.nactvar > bl.nactvar) {
                if (bl.upval) fs.patchClose(gt.pc, bl.nactvar);
                gt.nactvar = bl.nactvar;
            }
            if (findLabel(gt)) activeGotos--;
            else fs.bl.jumps.addGoto(gt); // keep it pending
        }
    }

    /** Closes goto {@code gt} with a visible label of the current block, if there is one. */
    private boolean findLabel(LabelDesc gt) {
        BlockCnt bl = fs.bl;
        LabelDesc lb = bl.jumps.label(gt.name);
        if (lb == null) return false;
        if (gt.nactvar > lb.nactvar) { // PUC also asks (bl->upval || the block has labels): it has lb
            fs.patchClose(gt.pc, lb.nactvar);
        }
        closeGoto(gt, lb);
        return true;
    }

    private void closeGoto(LabelDesc gt, LabelDesc label) {
        if (gt.nactvar < label.nactvar) {
            String vname = getLocVar(fs, gt.nactvar).name;
            throw semError("<goto " + gt.name + "> at line " + gt.line
                + " jumps into the scope of local '" + vname + "'");
        }
        fs.patchList(gt.pc, label.pc);
    }

    /** Closes the pending gotos of the current block that go to label {@code lb}. */
    void findGotos(LabelDesc lb) {
        for (LabelDesc gt : fs.bl.jumps.takeGotos(lb.name)) {
            closeGoto(gt, lb);
            gt.closed = true;
            activeGotos--;
        }
    }

    /** PUC keeps labels and pending gotos in arrays of at most SHRT_MAX entries. */
    private static final int MAX_LABELS = Short.MAX_VALUE;

    /** The chunk's canonical instance of string constant {@code s}. */
    LuaString intern(LuaString s) {
        account.lookup(s.length(), strings.size());
        LuaString old = strings.get(s);
        if (old != null) return old;
        LuaString event = EventNames.canonical(s); // the VM's own instance: metamethod lookups match by identity
        if (event != null) s = event;
        strings.put(s, s);
        account.string(s.length());
        return s;
    }

    /** Raised by PUC's luaM_growvector when a Dyndata list is full: a plain message, without position. */
    private static void checkLabelRoom(int active) {
        if (active >= MAX_LABELS) {
            throw new dev.luavm.vm.LuaError(LuaString.of("too many labels/gotos (limit is " + MAX_LABELS + ")"));
        }
    }

    private void addLabel(LabelDesc l) {
        checkLabelRoom(activeLabels);
        activeLabels++;
        account.label();
        fs.bl.jumps.addLabel(l);
    }

    private void breakLabel() {
        LabelDesc lb = new LabelDesc("break", fs.pc, 0, fs.nactvar);
        addLabel(lb);
        findGotos(lb);
    }

    /** gotoStat / breakStat, with the jump at {@code pc}. */
    void gotoStat(String label, int line, int pc) {
        LabelDesc gt = new LabelDesc(label, pc, line, fs.nactvar);
        checkLabelRoom(activeGotos);
        if (!findLabel(gt)) { // else the label is already defined
            activeGotos++;
            account.label();
            fs.bl.jumps.addGoto(gt);
        }
    }

    /** labelstat, once its NAME has been read: fails if the block already has the label. */
    void checkRepeated(String label) {
        LabelDesc lb = fs.bl.jumps.label(label);
        if (lb != null) {
            throw semError("label '" + label + "' already defined on line " + lb.line);
        }
    }

    /** labelstat, once its closing '::' has been read: the label (its gotos are closed later). */
    LabelDesc newLabel(String label, int line) {
        LabelDesc lb = new LabelDesc(label, fs.getLabel(), line, fs.nactvar);
        addLabel(lb);
        return lb;
    }

    // ------------------------------------------------------------------ assignments and calls

    /**
     * In a multiple assignment, a table or index register of an earlier target that this
     * target (a local or upvalue) overwrites is copied first (PUC's check_conflict).
     */
    void checkConflict(List<ExpDesc> targets, ExpDesc v) {
        int extra = fs.freereg; // eventual position to save local variable
        boolean conflict = false;
        for (ExpDesc lh : targets) {
            if (lh.k == Kind.VINDEXED) {
                if (lh.indVt == v.k && lh.indT == v.info) {
                    conflict = true;
                    lh.indVt = Kind.VLOCAL;
                    lh.indT = extra;
                }
                if (v.k == Kind.VLOCAL && lh.indIdx == v.info) {
                    conflict = true;
                    lh.indIdx = extra;
                }
            }
        }
        if (conflict) {
            OpCode op = v.k == Kind.VLOCAL ? OpCode.MOVE : OpCode.GETUPVAL;
            fs.codeABC(op, extra, v.info, 0);
            fs.reserveRegs(1);
        }
    }

    void adjustAssign(int nvars, int nexps, ExpDesc e) {
        int extra = nvars - nexps;
        if (e.hasMultRet()) {
            extra++; // includes call itself
            if (extra < 0) extra = 0;
            fs.setReturns(e, extra);
            if (extra > 1) fs.reserveRegs(extra - 1);
        } else {
            if (e.k != Kind.VVOID) fs.exp2nextreg(e);
            if (extra > 0) {
                int reg = fs.freereg;
                fs.reserveRegs(extra);
                fs.nil(reg, extra);
            }
        }
        if (nexps > nvars) fs.freereg -= nexps - nvars; // remove extra values
    }

    /**
     * The end of funcargs, its arguments in {@code args}: codes the CALL of the function in
     * register {@code f} (given at {@code line}, the line of the suffixed expression).
     */
    void call(ExpDesc f, ExpDesc args, int line) {
        assert f.k == Kind.VNONRELOC;
        int base = f.info; // base register for call
        int nparams;
        if (args.hasMultRet()) {
            nparams = LUA_MULTRET; // open call
        } else {
            if (args.k != Kind.VVOID) fs.exp2nextreg(args); // close last argument
            nparams = fs.freereg - (base + 1);
        }
        f.init(Kind.VCALL, fs.codeABC(OpCode.CALL, base, nparams + 1, 2));
        fs.fixLine(line);
        fs.freereg = base + 1; // the call leaves (unless changed) one result
    }

    /** cond : exp -- returns its false exit list. */
    int cond(ExpDesc v) {
        if (v.k == Kind.VNIL) v.k = Kind.VFALSE; // 'falses' are all equal here
        fs.goIfTrue(v);
        return v.f;
    }
}
