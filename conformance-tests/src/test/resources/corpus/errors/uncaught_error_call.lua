-- an uncaught error(msg) shows the position of the error call
print("start")
local function fail() error("fatal problem") end
fail()
print("not reached")
