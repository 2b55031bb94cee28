local t = setmetatable({}, {__gc = function() end, __mode = "k"}) collectgarbage() collectgarbage("count") print(collectgarbage("step"))
print(os.time{year=2020, month=1, day=1, hour=0}, os.date("!%Y-%m-%d", 0), os.clock() >= 0)
