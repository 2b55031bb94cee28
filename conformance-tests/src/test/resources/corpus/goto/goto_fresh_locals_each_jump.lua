-- each backward jump re-enters the block and creates fresh locals
local fs = {}
local i = 1
::again::
local x = i
fs[i] = function() return x end
i = i + 1
if i <= 3 then goto again end
print(fs[1](), fs[2](), fs[3]())
