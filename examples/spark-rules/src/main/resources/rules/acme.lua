-- acme: a flat 1.5% with a 0.30 minimum, 2.5% abroad
local tx = ...
local rate = tx.country == tx.home and 0.015 or 0.025
local fee = math.max(0.30, tx.amount * rate)
return { fee = math.floor(fee * 100 + 0.5) / 100, risk = tx.amount > 5000 and "review" or "low" }
