local function t(n) if n == 0 then return "done" end return t(n - 1) end
print(t(1e5))
