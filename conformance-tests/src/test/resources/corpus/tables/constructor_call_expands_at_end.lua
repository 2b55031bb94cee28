-- a call as the last item expands to all its values; elsewhere it is truncated
local function three() return 1, 2, 3 end
local a = {three()}
local b = {three(), three()}
local c = {three(), 10}
local d = {(three())}
print(#a, #b, #c, #d)
print(table.concat(b, ","))
