for i = 1, 3 do for j = 1, 3 do if j == 2 then goto continue end print(i, j) ::continue:: end end
do local k = 0 ::top:: k = k + 1 if k < 3 then goto top end print(k) end
