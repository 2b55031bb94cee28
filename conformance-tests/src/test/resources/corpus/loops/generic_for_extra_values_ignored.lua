-- the explist of a generic for is adjusted to three values
local function gen() return next, {10}, nil, "ignored" end
for k, v in gen() do print(k, v) end
