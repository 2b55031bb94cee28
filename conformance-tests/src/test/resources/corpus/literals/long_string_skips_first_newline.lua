-- a long string skips a newline that immediately follows the opening bracket
local s = [[
line1
line2]]
print(s)
print(#s)
print([==[with ]] inside]==])
