package dev.luavm.compiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.luavm.bytecode.Disassembler;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@link KnownPredictions} answers the grammar's non-LL(1) decisions itself: each must still be
 * found in the grammar, and a chunk that takes every answer (each statement kind it tells apart,
 * keyed, named and positional fields, a trailing separator, a parameter list with varargs, suffix
 * chains, and a line starting with '(' after an expression, which Lua 5.3 reads as a call)
 * compiles to the listing ANTLR's own prediction gave (recorded from the compiler before it).
 */
class KnownPredictionsTest {

    @Test
    void everyDecisionIsFoundInTheGrammar() {
        assertTrue(KnownPredictions.complete());
    }

    @Test
    void chunkTakingEveryAnswerCompilesAsBefore() {
        String source = """
local t = {x = 1, [2] = 3, y, 4; "s", f = function(a, b, ...) return a end,}
for i = 1, 2 do t[i] = i end
for k, v in pairs(t) do ; end
local function g(a, b) return a.b:c "s" {1} [a] end
local h
h = g
(h)(t)
::top:: goto top
""";
        String expected = """

main <k.lua:0,0> (31 instructions at F0)
0+ params, 7 slots, 1 upvalue, 12 locals, 9 constants, 2 functions
	1	[1]	NEWTABLE 	0 3 3
	2	[1]	SETTABLE 	0 -1 -2	; "x" 1
	3	[1]	SETTABLE 	0 -3 -4	; 2 3
	4	[1]	GETTABUP 	1 0 -5	; _ENV "y"
	5	[1]	LOADK    	2 -6	; 4
	6	[1]	LOADK    	3 -7	; "s"
	7	[1]	CLOSURE  	4 0	; F1
	8	[1]	SETTABLE 	0 -8 4	; "f" -
	9	[1]	SETLIST  	0 3 1	; 1
	10	[2]	LOADK    	1 -2	; 1
	11	[2]	LOADK    	2 -3	; 2
	12	[2]	LOADK    	3 -2	; 1
	13	[2]	FORPREP  	1 1	; to 15
	14	[2]	SETTABLE 	0 4 4
	15	[2]	FORLOOP  	1 -2	; to 14
	16	[3]	GETTABUP 	1 0 -9	; _ENV "pairs"
	17	[3]	MOVE     	2 0
	18	[3]	CALL     	1 2 4
	19	[3]	JMP      	0 0	; to 20
	20	[3]	TFORCALL 	1 2
	21	[3]	TFORLOOP 	3 -2	; to 20
	22	[4]	CLOSURE  	1 1	; F2
	23	[5]	LOADNIL  	2 0
	24	[6]	MOVE     	3 1
	25	[7]	MOVE     	4 2
	26	[6]	CALL     	3 2 2
	27	[7]	MOVE     	4 0
	28	[6]	CALL     	3 2 2
	29	[7]	MOVE     	2 3
	30	[8]	JMP      	0 -1	; to 30
	31	[8]	RETURN   	0 1
constants (9) for F0:
	1	"x"
	2	1
	3	2
	4	3
	5	"y"
	6	4
	7	"s"
	8	"f"
	9	"pairs"
locals (12) for F0:
	0	t	10	32
	1	(for index)	13	16
	2	(for limit)	13	16
	3	(for step)	13	16
	4	i	14	15
	5	(for generator)	19	22
	6	(for state)	19	22
	7	(for control)	19	22
	8	k	20	20
	9	v	20	20
	10	g	23	32
	11	h	24	32
upvalues (1) for F0:
	0	_ENV	1	0

function <k.lua:1,1> (2 instructions at F1)
2+ params, 2 slots, 0 upvalues, 2 locals, 0 constants, 0 functions
	1	[1]	RETURN   	0 2
	2	[1]	RETURN   	0 1
constants (0) for F1:
locals (2) for F1:
	0	a	1	3
	1	b	1	3
upvalues (0) for F1:

function <k.lua:4,4> (11 instructions at F2)
2 params, 5 slots, 0 upvalues, 2 locals, 4 constants, 0 functions
	1	[4]	GETTABLE 	2 0 -1	; "b"
	2	[4]	SELF     	2 2 -2	; "c"
	3	[4]	LOADK    	4 -3	; "s"
	4	[4]	CALL     	2 3 2
	5	[4]	NEWTABLE 	3 1 0
	6	[4]	LOADK    	4 -4	; 1
	7	[4]	SETLIST  	3 1 1	; 1
	8	[4]	CALL     	2 2 2
	9	[4]	GETTABLE 	2 2 0
	10	[4]	RETURN   	2 2
	11	[4]	RETURN   	0 1
constants (4) for F2:
	1	"b"
	2	"c"
	3	"s"
	4	1
locals (2) for F2:
	0	a	1	12
	1	b	1	12
upvalues (0) for F2:
""";
        String listing = Disassembler.listing(
            LuaCompiler.compile(source.getBytes(StandardCharsets.ISO_8859_1), "@k.lua"), true);
        assertEquals(expected, listing);
    }
}
