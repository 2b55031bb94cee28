-- globex: tiered by amount, card-not-present surcharge, and a rule error on unknown channels
local tx = ...
local tiers = { { limit = 100, rate = 0.03 }, { limit = 1000, rate = 0.02 }, { limit = math.huge, rate = 0.012 } }
local rate
for _, t in ipairs(tiers) do
  if tx.amount <= t.limit then rate = t.rate break end
end
local surcharge = ({ pos = 0, web = 0.005, phone = 0.01 })[tx.channel]
if surcharge == nil then error("unknown channel " .. tostring(tx.channel)) end
return { fee = math.floor(tx.amount * (rate + surcharge) * 100 + 0.5) / 100,
         risk = (tx.channel ~= "pos" and tx.amount > 2000) and "high" or "low" }
