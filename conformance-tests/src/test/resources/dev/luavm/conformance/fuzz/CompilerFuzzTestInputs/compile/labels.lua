do ::l:: end ::l:: goto l
