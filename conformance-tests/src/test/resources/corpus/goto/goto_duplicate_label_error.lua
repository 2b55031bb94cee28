-- a label name may not be repeated where it is visible
print(load("::a:: ::a::"))
print(load("::a:: do ::a:: end"))
