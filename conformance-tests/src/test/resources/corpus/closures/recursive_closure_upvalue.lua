-- a local function is an upvalue of itself
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end
print(fib(20))
local g = fib
fib = nil
print(pcall(g, 5))
