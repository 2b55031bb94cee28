-- the start, limit and step expressions are evaluated once, before the loop
local limit = 3
local evals = 0
local function lim() evals = evals + 1; return limit end
for i = 1, lim() do limit = 10 end
print(evals, limit)
