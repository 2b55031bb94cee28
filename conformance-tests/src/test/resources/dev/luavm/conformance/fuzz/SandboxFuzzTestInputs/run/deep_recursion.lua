local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end
print(pcall(f, 1e6))
