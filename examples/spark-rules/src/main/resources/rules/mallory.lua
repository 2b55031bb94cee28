-- mallory: a tenant whose rule turns hostile on some rows
local tx = ...
if tx.id % 1000 == 1 then while true do end end                       -- a runaway loop
if tx.id % 1000 == 2 then                                             -- a memory bomb
  local hoard, s = {}, "x"
  while true do hoard[#hoard + 1] = s; s = s .. s end
end
if tx.id % 1000 == 3 then return { fee = #string.rep("spam", 1e8) } end -- a string.rep flood (400 MB)
if tx.id % 1000 == 4 then return { fee = "free" } end                  -- a bad output
return { fee = math.floor(tx.amount * 0.02 * 100 + 0.5) / 100, risk = "low" }
