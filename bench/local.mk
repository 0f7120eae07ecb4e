# bench: see the fragments it includes
