local t = {1, 2, [3] = 3, x = 4; "y", f = function() end, [ [[k]] ] = 5}
t.a.b.c = t[1][2]:m(1)("s"){}
