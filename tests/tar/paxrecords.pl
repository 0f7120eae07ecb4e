#!/usr/bin/perl
# SPDX-License-Identifier: BSD-2-Clause
# paxrecords.pl: the headers of an uncompressed tar archive, one line per
# member ("NAME TYPE mtime=T [XNAME mtime=T RECORDS]", its extended header
# in brackets, NAME its path or GNU.sparse.name record if it has one) and per global header ("global NAME mtime=T RECORDS"),
# records joined by '|'. atime and ctime records are left out (sweep-tar
# never stores them), so that archives whose members come in another order
# can be compared sorted.
use strict;
use warnings;

local $/;
my $d = <>;
my ($at, $x, $path) = (0, '', undef);
while ($at + 512 <= length $d) {
	my $h = substr($d, $at, 512);
	last if $h =~ /^\0+$/;
	my ($name) = unpack('Z100', $h);
	my ($prefix) = unpack('Z155', substr($h, 345));
	$name = "$prefix/$name" if $prefix ne '';
	my $type = substr($h, 156, 1);
	my $num = sub { oct((substr($h, $_[0], 12) =~ s/[\0 ].*//sr) || 0) };
	my ($size, $mtime) = ($num->(124), $num->(136));
	if ($type eq 'x' || $type eq 'g') {
		my $r = join '|', grep { !/^\d+ [ac]time=/ } split /\n/, substr($d, $at + 512, $size);
		if ($type eq 'g') { print "global $name mtime=$mtime $r\n" }
		else { $x = " [$name mtime=$mtime $r]"; ($path) = $r =~ /(?:^|\|)\d+ (?:path|GNU\.sparse\.name)=([^|]*)/ }
	} else {
		print +($path // $name), " $type mtime=$mtime$x\n";
		($x, $path) = ('', undef);
	}
	$at += 512 + ($type =~ /[0xg7]/ ? int(($size + 511) / 512) * 512 : 0);
}
