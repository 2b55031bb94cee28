-- an uncaught runtime error ends the script; earlier output is kept
print("before")
local t = nil
print(t.x)
