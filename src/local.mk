# src: see the fragments it includes
