-- select('#') shows exactly how many values a function returned
local function none() end
local function empty_return() return end
local function one_nil() return nil end
print(select("#", none()), select("#", empty_return()), select("#", one_nil()))
