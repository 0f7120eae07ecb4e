# man: see the fragments it includes
