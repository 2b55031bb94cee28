print(load("return 1 + ...")(2), load("syntax error here"), pcall(load, nil))
local n = 0 local f = load(function() n = n + 1 if n < 5 then return "x = 1 " end end) print(f, x)
