package dev.luavm.compiler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.luavm.bytecode.Disassembler;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Golden tests: the compiler's output for small snippets, as {@code luac -l -l} listings
 * ({@link Disassembler}, with function ids in place of addresses). Each expected listing was
 * checked instruction by instruction against PUC's luac5.3 for the same snippet: code, line
 * info, constants, locals (with pc ranges) and upvalues are identical.
 */
class CompilerGoldenTest {

    private static String listing(String source, String name) {
        return Disassembler.listing(
            LuaCompiler.compile(source.getBytes(StandardCharsets.ISO_8859_1), "@" + name), true);
    }

    /** arithmetic, constant folding, concatenation, unary operators */
    @Test
    void expressions() {
        String source = """
local a, b = 1, 2.5
print(a + b * 2, a .. "x" .. b, -a, not b, #a, 1 + 2, 7 // 0, 2^10)
""";
        String expected = "\n" + """
main <g1.lua:0,0> (17 instructions at F0)
0+ params, 11 slots, 1 upvalue, 2 locals, 9 constants, 0 functions
	1	[1]	LOADK    	0 -1	; 1
	2	[1]	LOADK    	1 -2	; 2.5
	3	[2]	GETTABUP 	2 0 -3	; _ENV "print"
	4	[2]	MUL      	3 1 -4	; - 2
	5	[2]	ADD      	3 0 3
	6	[2]	MOVE     	4 0
	7	[2]	LOADK    	5 -5	; "x"
	8	[2]	MOVE     	6 1
	9	[2]	CONCAT   	4 4 6
	10	[2]	UNM      	5 0
	11	[2]	NOT      	6 1
	12	[2]	LEN      	7 0
	13	[2]	LOADK    	8 -6	; 3
	14	[2]	IDIV     	9 -8 -7	; 7 0
	15	[2]	LOADK    	10 -9	; 1024.0
	16	[2]	CALL     	2 9 1
	17	[2]	RETURN   	0 1
constants (9) for F0:
	1	1
	2	2.5
	3	"print"
	4	2
	5	"x"
	6	3
	7	0
	8	7
	9	1024.0
locals (2) for F0:
	0	a	3	18
	1	b	3	18
upvalues (1) for F0:
	0	_ENV	1	0
""";
        assertEquals(expected, listing(source, "g1.lua"));
    }

    /** closures, upvalues, varargs, table constructor with a multi-value call, multiple assignment, method call, tail call */
    @Test
    void closuresAndTables() {
        String source = """
local function counter()
  local n = 0
  return function(...) n = n + 1; return n, ... end
end
local t = {1, 2, x = "y", [3] = true, counter()}
t.x, t[1] = t[1], t.x
obj:m(t)
return counter()
""";
        String expected = "\n" + """
main <g2.lua:0,0> (21 instructions at F0)
0+ params, 5 slots, 1 upvalue, 2 locals, 8 constants, 1 function
	1	[4]	CLOSURE  	0 0	; F1
	2	[5]	NEWTABLE 	1 2 2
	3	[5]	LOADK    	2 -1	; 1
	4	[5]	LOADK    	3 -2	; 2
	5	[5]	SETTABLE 	1 -3 -4	; "x" "y"
	6	[5]	SETTABLE 	1 -5 -6	; 3 true
	7	[5]	MOVE     	4 0
	8	[5]	CALL     	4 1 0
	9	[5]	SETLIST  	1 0 1	; 1
	10	[6]	GETTABLE 	2 1 -1	; 1
	11	[6]	GETTABLE 	3 1 -3	; "x"
	12	[6]	SETTABLE 	1 -1 3	; 1 -
	13	[6]	SETTABLE 	1 -3 2	; "x" -
	14	[7]	GETTABUP 	2 0 -7	; _ENV "obj"
	15	[7]	SELF     	2 2 -8	; "m"
	16	[7]	MOVE     	4 1
	17	[7]	CALL     	2 3 1
	18	[8]	MOVE     	2 0
	19	[8]	TAILCALL 	2 1 0
	20	[8]	RETURN   	2 0
	21	[8]	RETURN   	0 1
constants (8) for F0:
	1	1
	2	2
	3	"x"
	4	"y"
	5	3
	6	true
	7	"obj"
	8	"m"
locals (2) for F0:
	0	counter	2	22
	1	t	10	22
upvalues (1) for F0:
	0	_ENV	1	0

function <g2.lua:1,4> (4 instructions at F1)
0 params, 2 slots, 0 upvalues, 1 local, 1 constant, 1 function
	1	[2]	LOADK    	0 -1	; 0
	2	[3]	CLOSURE  	1 0	; F2
	3	[3]	RETURN   	1 2
	4	[4]	RETURN   	0 1
constants (1) for F1:
	1	0
locals (1) for F1:
	0	n	2	5
upvalues (0) for F1:

function <g2.lua:3,3> (7 instructions at F2)
0+ params, 2 slots, 1 upvalue, 0 locals, 1 constant, 0 functions
	1	[3]	GETUPVAL 	0 0	; n
	2	[3]	ADD      	0 0 -1	; - 1
	3	[3]	SETUPVAL 	0 0	; n
	4	[3]	GETUPVAL 	0 0	; n
	5	[3]	VARARG   	1 0
	6	[3]	RETURN   	0 0
	7	[3]	RETURN   	0 1
constants (1) for F2:
	1	1
locals (0) for F2:
upvalues (1) for F2:
	0	n	1	0
""";
        assertEquals(expected, listing(source, "g2.lua"));
    }

    /** numeric and generic for, break, repeat-until with an upvalue in scope, and/or conditions, goto */
    @Test
    void loopsAndGoto() {
        String source = """
for i = 1, 3 do
  local f = function() return i end
  if i == 2 then break end
end
for k, v in pairs(t) do print(k, v) end
local x = 0
repeat
  local y = x
  local g = function() return y end
  x = x + 1
until y > 2
while x > 0 and x < 10 or x == 5 do x = x - 1 end
goto done
::done::
""";
        String expected = "\n" + """
main <g3.lua:0,0> (36 instructions at F0)
0+ params, 8 slots, 1 upvalue, 13 locals, 9 constants, 2 functions
	1	[1]	LOADK    	0 -1	; 1
	2	[1]	LOADK    	1 -2	; 3
	3	[1]	LOADK    	2 -1	; 1
	4	[1]	FORPREP  	0 4	; to 9
	5	[2]	CLOSURE  	4 0	; F1
	6	[3]	EQ       	1 3 -3	; - 2
	7	[3]	JMP      	4 2	; to 10
	8	[3]	JMP      	4 0	; to 9
	9	[1]	FORLOOP  	0 -5	; to 5
	10	[5]	GETTABUP 	0 0 -4	; _ENV "pairs"
	11	[5]	GETTABUP 	1 0 -5	; _ENV "t"
	12	[5]	CALL     	0 2 4
	13	[5]	JMP      	0 4	; to 18
	14	[5]	GETTABUP 	5 0 -6	; _ENV "print"
	15	[5]	MOVE     	6 3
	16	[5]	MOVE     	7 4
	17	[5]	CALL     	5 3 1
	18	[5]	TFORCALL 	0 2
	19	[5]	TFORLOOP 	2 -6	; to 14
	20	[6]	LOADK    	0 -7	; 0
	21	[8]	MOVE     	1 0
	22	[9]	CLOSURE  	2 1	; F2
	23	[10]	ADD      	0 0 -1	; - 1
	24	[11]	LT       	0 -3 1	; 2 -
	25	[11]	JMP      	2 -5	; to 21
	26	[11]	JMP      	2 0	; to 27
	27	[12]	LT       	0 -7 0	; 0 -
	28	[12]	JMP      	0 2	; to 31
	29	[12]	LT       	1 0 -8	; - 10
	30	[12]	JMP      	0 2	; to 33
	31	[12]	EQ       	0 0 -9	; - 5
	32	[12]	JMP      	0 3	; to 36
	33	[12]	SUB      	0 0 -1	; - 1
	34	[12]	JMP      	0 -8	; to 27
	35	[12]	JMP      	0 0	; to 36
	36	[14]	RETURN   	0 1
constants (9) for F0:
	1	1
	2	3
	3	2
	4	"pairs"
	5	"t"
	6	"print"
	7	0
	8	10
	9	5
locals (13) for F0:
	0	(for index)	4	10
	1	(for limit)	4	10
	2	(for step)	4	10
	3	i	5	9
	4	f	6	8
	5	(for generator)	13	20
	6	(for state)	13	20
	7	(for control)	13	20
	8	k	14	18
	9	v	14	18
	10	x	21	37
	11	y	22	27
	12	g	23	27
upvalues (1) for F0:
	0	_ENV	1	0

function <g3.lua:2,2> (3 instructions at F1)
0 params, 2 slots, 1 upvalue, 0 locals, 0 constants, 0 functions
	1	[2]	GETUPVAL 	0 0	; i
	2	[2]	RETURN   	0 2
	3	[2]	RETURN   	0 1
constants (0) for F1:
locals (0) for F1:
upvalues (1) for F1:
	0	i	1	3

function <g3.lua:9,9> (3 instructions at F2)
0 params, 2 slots, 1 upvalue, 0 locals, 0 constants, 0 functions
	1	[9]	GETUPVAL 	0 0	; y
	2	[9]	RETURN   	0 2
	3	[9]	RETURN   	0 1
constants (0) for F2:
locals (0) for F2:
upvalues (1) for F2:
	0	y	1	1
""";
        assertEquals(expected, listing(source, "g3.lua"));
    }
}
