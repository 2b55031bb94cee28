package dev.luavm.compiler;

import static dev.luavm.grammar.LuaParser.*;

import dev.luavm.value.LuaString;
import java.util.HashMap;
import java.util.Map;

/**
 * The Lua 5.3 lexer, written by hand after PUC's {@code llex.c} so that lexical errors read
 * exactly as PUC's ({@code unfinished string near '"abc'}, {@code malformed number near '3..2'},
 * long brackets of any level). It produces tokens with the types of the ANTLR grammar
 * ({@code Lua.g4}), one at a time, so that (as in PUC) a lexical error is reported only when
 * the parser reaches it.
 *
 * <p>The source is read in place, its bytes seen as Latin-1 chars (one char per byte). A
 * token's line is the line where it ends (PUC's {@code linenumber} after reading it).
 */
final class LuaLexer {
    private static final int EOZ = -1;
    private static final Map<String, Integer> RESERVED = new HashMap<>();

    static {
        String[] words = {"and", "break", "do", "else", "elseif", "end", "false", "for", "function",
            "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true",
            "until", "while"};
        int[] types = {AND, BREAK, DO, ELSE, ELSEIF, END, FALSE, FOR, FUNCTION, GOTO, IF, IN, LOCAL,
            NIL, NOT, OR, REPEAT, RETURN, THEN, TRUE, UNTIL, WHILE};
        for (int i = 0; i < words.length; i++) RESERVED.put(words[i], types[i]);
    }

    private final byte[] src;
    private final CompileErrors errors;
    private int pos;
    private int current;
    private int line = 1;
    private int tokenIndex;
    /** PUC's lexer buffer: the token text read so far (shown in lexical error messages). */
    private final StringBuilder buff = new StringBuilder();
    private final CompileAccount account;
    /**
     * One String per distinct name, so the compiler compares names by identity. Seeded with the
     * names the compiler itself writes as literals (JVM-interned, so the same objects).
     */
    private final Map<String, String> names;

    /**
     * A lexer of {@code src}; {@code internNames}: give each NAME token the chunk's one instance
     * of its name (the compiler compares names by identity), else a fresh string (the syntax
     * check does not look at names).
     */
    LuaLexer(byte[] src, CompileErrors errors, CompileAccount account, boolean internNames) {
        this.src = src;
        this.errors = errors;
        this.account = account;
        this.names = internNames ? new HashMap<>() : null;
        if (internNames) for (String n : Compiler.BUILTIN_NAMES) names.put(n, n);
        this.pos = 0;
        this.current = src.length == 0 ? EOZ : src[0] & 0xFF;
    }

    int line() {
        return line;
    }

    // ------------------------------------------------------------------ character level

    private void next() {
        pos++;
        current = pos < src.length ? src[pos] & 0xFF : EOZ;
    }

    private void saveAndNext() {
        save(current);
        next();
    }

    /** Appends {@code c} to the buffer, paying first for the buffer's growth. */
    private void save(int c) {
        if (buff.length() == buff.capacity()) {
            int capacity = buff.capacity() * 2 + 2;
            account.lexeme(capacity);
            buff.ensureCapacity(capacity);
        }
        buff.append((char) c);
    }

    private boolean currIsNewline() {
        return current == '\n' || current == '\r';
    }

    private void incLineNumber() {
        int old = current;
        next(); // skip '\n' or '\r'
        if (currIsNewline() && current != old) next(); // skip '\n\r' or '\r\n'
        if (++line >= Integer.MAX_VALUE) throw lexError("chunk has too many lines", null);
    }

    private boolean checkNext1(int c) {
        if (current == c) {
            next();
            return true;
        }
        return false;
    }

    /** Saves and skips the current char if it is one of the two in {@code set}. */
    private boolean checkNext2(String set) {
        if (current == set.charAt(0) || current == set.charAt(1)) {
            saveAndNext();
            return true;
        }
        return false;
    }

    static boolean isAlpha(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    static boolean isAlnum(int c) {
        return isAlpha(c) || isDigit(c);
    }

    static boolean isXDigit(int c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    static boolean isSpace(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0B || c == '\f';
    }

    private static int hexValue(int c) {
        return isDigit(c) ? c - '0' : (Character.toLowerCase(c) - 'a') + 10;
    }

    // ------------------------------------------------------------------ errors

    /** A lexical error; {@code near} is the quoted token text, or null for none. */
    private RuntimeException lexError(String msg, String near) {
        return errors.syntax(line, msg, near);
    }

    private String bufferNear() {
        return "'" + buff + "'";
    }

    /** How PUC names a token after {@code near} ({@code luaX_token2str}/{@code txtToken}). */
    static String tokenText(int type, String text) {
        switch (type) {
            case EOF:
                return "<eof>";
            case NAME: case STRING: case INT: case FLOAT: case LuaToken.OTHER:
                return text;
            default:
                return "'" + text + "'";
        }
    }

    // ------------------------------------------------------------------ tokens

    private LuaToken token(int type, String text, Object value) {
        return new LuaToken(type, text, value, line, tokenIndex++);
    }

    /** The chunk's one instance of name {@code word} (String orders its keys: see CompileAccount#lookup). */
    private String intern(String word) {
        if (names == null) return word;
        account.lookup(word.length(), names.size());
        String old = names.putIfAbsent(word, word);
        if (old != null) return old;
        account.string(word.length());
        return word;
    }

    /** The next token; at the end, an EOF token (repeatedly). */
    LuaToken nextToken() {
        buff.setLength(0);
        for (;;) {
            switch (current) {
                case '\n': case '\r':
                    incLineNumber();
                    break;
                case ' ': case '\f': case '\t': case 0x0B:
                    next();
                    break;
                case '-': {
                    next();
                    if (current != '-') return token(MINUS, "-", null);
                    next(); // a comment
                    if (current == '[') {
                        int sep = skipSep();
                        buff.setLength(0);
                        if (sep >= 0) {
                            readLongString(false, sep);
                            buff.setLength(0);
                            break;
                        }
                    }
                    while (!currIsNewline() && current != EOZ) next(); // short comment
                    break;
                }
                case '[': {
                    int sep = skipSep();
                    if (sep >= 0) {
                        String s = readLongString(true, sep);
                        return new LuaToken(STRING, null, LuaString.ofLatin1(s), line, tokenIndex++, -sep - 1);
                    } else if (sep != -1) {
                        throw lexError("invalid long string delimiter", bufferNear());
                    }
                    return token(LBRACKET, "[", null);
                }
                case '=':
                    next();
                    return checkNext1('=') ? token(EQ, "==", null) : token(ASSIGN, "=", null);
                case '<':
                    next();
                    if (checkNext1('=')) return token(LE, "<=", null);
                    if (checkNext1('<')) return token(SHL, "<<", null);
                    return token(LT, "<", null);
                case '>':
                    next();
                    if (checkNext1('=')) return token(GE, ">=", null);
                    if (checkNext1('>')) return token(SHR, ">>", null);
                    return token(GT, ">", null);
                case '/':
                    next();
                    return checkNext1('/') ? token(DSLASH, "//", null) : token(SLASH, "/", null);
                case '~':
                    next();
                    return checkNext1('=') ? token(NE, "~=", null) : token(TILDE, "~", null);
                case ':':
                    next();
                    return checkNext1(':') ? token(DCOLON, "::", null) : token(COLON, ":", null);
                case '"': case '\'': {
                    int quote = current;
                    LuaString s = readString(current);
                    return new LuaToken(STRING, null, s, line, tokenIndex++, quote);
                }
                case '.': {
                    saveAndNext();
                    if (checkNext1('.')) {
                        return checkNext1('.') ? token(ELLIPSIS, "...", null) : token(CONCAT, "..", null);
                    } else if (!isDigit(current)) {
                        return token(DOT, ".", null);
                    }
                    return readNumeral();
                }
                case '0': case '1': case '2': case '3': case '4':
                case '5': case '6': case '7': case '8': case '9':
                    return readNumeral();
                case EOZ:
                    return token(EOF, "<eof>", null);
                default: {
                    if (isAlpha(current)) {
                        do {
                            saveAndNext();
                        } while (isAlnum(current));
                        String word = buff.toString();
                        Integer reserved = RESERVED.get(word);
                        if (reserved != null) return token(reserved, word, null);
                        return token(NAME, null, intern(word));
                    }
                    int c = current;
                    next();
                    return singleChar(c);
                }
            }
        }
    }

    /** The text of each one-char token. */
    private static final String[] SINGLE = new String[128];

    static {
        for (char c : "+*%^#&|(){}];,".toCharArray()) SINGLE[c] = String.valueOf(c).intern();
    }

    private LuaToken singleChar(int c) {
        int type;
        switch (c) {
            case '+': type = PLUS; break;
            case '*': type = STAR; break;
            case '%': type = PERCENT; break;
            case '^': type = CARET; break;
            case '#': type = HASH; break;
            case '&': type = AMP; break;
            case '|': type = PIPE; break;
            case '(': type = LPAREN; break;
            case ')': type = RPAREN; break;
            case '{': type = LBRACE; break;
            case '}': type = RBRACE; break;
            case ']': type = RBRACKET; break;
            case ';': type = SEMI; break;
            case ',': type = COMMA; break;
            default: {
                String shown = c >= 0x20 && c < 0x7F ? "'" + (char) c + "'" : "'<\\" + c + ">'";
                return token(LuaToken.OTHER, shown, null);
            }
        }
        return token(type, SINGLE[c], null);
    }

    /**
     * Reads a sequence '[=*[' or ']=*]', leaving the last bracket; returns its number of '='
     * signs, or -(n+1) if the sequence is not well formed (as PUC's skip_sep).
     */
    private int skipSep() {
        int count = 0;
        int s = current;
        saveAndNext();
        while (current == '=') {
            saveAndNext();
            count++;
        }
        return current == s ? count : -count - 1;
    }

    /** Reads a long string or comment after its opening '[=*' ; returns the contents. */
    private String readLongString(boolean isString, int sep) {
        int startLine = line;
        saveAndNext(); // skip 2nd '['
        if (currIsNewline()) incLineNumber(); // a first newline is skipped
        for (;;) {
            switch (current) {
                case EOZ:
                    throw lexError("unfinished long " + (isString ? "string" : "comment")
                        + " (starting at line " + startLine + ")", "<eof>");
                case ']':
                    if (skipSep() == sep) {
                        saveAndNext(); // skip 2nd ']'
                        return isString ? buff.substring(2 + sep, buff.length() - (2 + sep)) : "";
                    }
                    break;
                case '\n': case '\r':
                    save('\n');
                    incLineNumber();
                    if (!isString) buff.setLength(0); // comments need no text
                    break;
                default:
                    if (isString) saveAndNext();
                    else next();
            }
        }
    }

    /** PUC's esccheck: on failure, adds the current char to the message text and fails. */
    private void escCheck(boolean ok, String msg) {
        if (!ok) {
            if (current != EOZ) saveAndNext();
            throw lexError(msg, bufferNear());
        }
    }

    private int getHexa() {
        saveAndNext();
        escCheck(isXDigit(current), "hexadecimal digit expected");
        return hexValue(current);
    }

    private int readHexaEsc() {
        int r = getHexa();
        r = (r << 4) + getHexa();
        buff.setLength(buff.length() - 2); // remove saved chars from buffer
        return r;
    }

    private long readUtf8Esc() {
        int i = 4; // chars to be removed: '\', 'u', '{', and first digit
        saveAndNext(); // skip 'u'
        escCheck(current == '{', "missing '{'");
        long r = getHexa(); // must have at least one digit
        for (;;) {
            saveAndNext();
            if (!isXDigit(current)) break;
            i++;
            r = (r << 4) + hexValue(current);
            escCheck(r <= 0x10FFFF, "UTF-8 value too large");
        }
        escCheck(current == '}', "missing '}'");
        next(); // skip '}'
        buff.setLength(buff.length() - i);
        return r;
    }

    /** Appends the UTF-8 encoding of {@code x} (up to 0x10FFFF), as PUC's luaO_utf8esc. */
    private void utf8Esc(long x) {
        if (x < 0x80) {
            save((int) x);
            return;
        }
        char[] tmp = new char[8];
        int n = 0;
        int mfb = 0x3f; // maximum that fits in first byte
        do {
            tmp[n++] = (char) (0x80 | (x & 0x3f));
            x >>= 6;
            mfb >>= 1;
        } while (x > mfb);
        tmp[n++] = (char) ((~mfb << 1 | x) & 0xFF);
        for (int k = n - 1; k >= 0; k--) save(tmp[k]);
    }

    private int readDecEsc() {
        int i;
        int r = 0;
        for (i = 0; i < 3 && isDigit(current); i++) {
            r = 10 * r + current - '0';
            saveAndNext();
        }
        escCheck(r <= 0xFF, "decimal escape too large");
        buff.setLength(buff.length() - i);
        return r;
    }

    private LuaString readString(int del) {
        saveAndNext(); // keep delimiter (for error messages)
        while (current != del) {
            switch (current) {
                case EOZ:
                    throw lexError("unfinished string", "<eof>");
                case '\n': case '\r':
                    throw lexError("unfinished string", bufferNear());
                case '\\': {
                    int c;
                    saveAndNext(); // keep '\\' for error messages
                    switch (current) {
                        case 'a': c = 7; break;
                        case 'b': c = '\b'; break;
                        case 'f': c = '\f'; break;
                        case 'n': c = '\n'; break;
                        case 'r': c = '\r'; break;
                        case 't': c = '\t'; break;
                        case 'v': c = 0x0B; break;
                        case 'x': c = readHexaEsc(); break;
                        case 'u': {
                            utf8Esc(readUtf8Esc()); // readUtf8Esc removed the '\\' too
                            continue;
                        }
                        case '\n': case '\r':
                            incLineNumber();
                            buff.setLength(buff.length() - 1);
                            save('\n');
                            continue;
                        case '\\': case '"': case '\'':
                            c = current;
                            break;
                        case EOZ:
                            continue; // will raise an error next loop
                        case 'z': {
                            buff.setLength(buff.length() - 1); // remove '\\'
                            next(); // skip the 'z'
                            while (isSpace(current)) {
                                if (currIsNewline()) incLineNumber();
                                else next();
                            }
                            continue;
                        }
                        default: {
                            escCheck(isDigit(current), "invalid escape sequence");
                            c = readDecEsc(); // digital escape '\ddd'
                            buff.setLength(buff.length() - 1);
                            save(c);
                            continue;
                        }
                    }
                    // read_save: skip the escape char, replace '\\' by the value
                    next();
                    buff.setLength(buff.length() - 1);
                    save(c);
                    break;
                }
                default:
                    saveAndNext();
            }
        }
        saveAndNext(); // skip delimiter
        return LuaString.ofLatin1(buff.substring(1, buff.length() - 1));
    }

    /** Reads a numeral as PUC does (hex digits, dots and exponents), then converts it. */
    private LuaToken readNumeral() {
        String expo = "Ee";
        int first = current;
        saveAndNext();
        if (first == '0' && checkNext2("xX")) expo = "Pp";
        for (;;) {
            if (checkNext2(expo)) checkNext2("-+"); // optional exponent sign
            if (isXDigit(current) || current == '.') saveAndNext();
            else break;
        }
        String text = buff.toString();
        Object v = NumberParser.parse(text);
        if (v == null) throw lexError("malformed number", bufferNear());
        return token(v instanceof Long ? INT : FLOAT, "'" + text + "'", v);
    }
}
