for i = 1, 10, 2 do if i > 5 then break end end
while false do end
repeat local x = 1 until x
for k, v in pairs({}) do goto continue ::continue:: end
