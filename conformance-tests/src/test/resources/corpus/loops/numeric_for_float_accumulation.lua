-- a float loop accumulates the step, so rounding decides the last iteration
local n = 0
for x = 0, 1, 0.1 do n = n + 1 end
print(n)
local last
for x = 0, 0.3, 0.1 do last = x end
print(string.format("%.17g", last))
