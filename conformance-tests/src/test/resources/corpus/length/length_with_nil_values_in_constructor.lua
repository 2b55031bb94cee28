-- '#' of a constructor ending in non-nil values counts every slot
print(#{1, 2, 3, nil, 5} >= 3)
print(#{n = 1, 10, 20})
print(#{nil})
