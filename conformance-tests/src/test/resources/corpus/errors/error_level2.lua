-- error(msg, 2) blames the caller of the function that called error
local function check(x) if not x then error("check failed", 2) end end
local function caller()
  check(false)
end
print(pcall(caller))
