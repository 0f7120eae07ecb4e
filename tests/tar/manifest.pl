#!/usr/bin/perl
# SPDX-License-Identifier: BSD-2-Clause
# manifest.pl: one line per entry of a tree, sorted, for comparing a tree
# with its extracted copy:
#   PATH TYPE MODE UID GID MTIME SIZE MD5 LINK-TARGET LINK-GROUP XATTRS
# PATH is escaped (\n, \ooo) so that odd names stay on one line. MTIME is cut
# to whole seconds unless -n (nanoseconds kept). LINK-GROUP is the smallest
# path that names the same inode, so hard-link structure is compared without
# inode numbers. Directory sizes, link counts of directories, atimes and
# ctimes are left out: they differ between equal trees. XATTRS lists the
# attributes (from getfattr) of entries whose name starts with "xattr".
# Options: -n keep nanoseconds; -o leave owners out; -x leave xattrs out;
# -s also say whether regular files are sparse (fewer blocks than bytes);
# -R leave out the time of DIR itself (a directory extracted into); -D leave
# out the times of all directories (made on the way to a chosen member);
# -t SECS print a time at or after SECS as "new" (written by a run that
# began then: two runs of tar -m may straddle a second).
use strict;
use warnings;
use File::Find;
use Digest::MD5;
use Getopt::Std;
use Time::HiRes qw(lstat);

my %o;
my $usage = "usage: manifest.pl [-noxsRD] [-t SECS] DIR\n";
getopts('noxsRDt:', \%o) or die $usage;
my $root = shift or die $usage;
chdir $root or die "$root: $!\n";

my (%st, %group);
find({ no_chdir => 1, wanted => sub {
	my @s = lstat($_) or die "$_: $!\n";
	$st{$_} = \@s;
	my $key = "$s[0]:$s[1]";
	$group{$key} = $_ if !-d _ && (!defined $group{$key} || $_ lt $group{$key});
} }, '.');

sub esc {
	my $s = shift;
	$s =~ s/([\\\x00-\x1f\x7f-\xff ])/sprintf("\\%03o", ord($1))/ge;
	return $s;
}

sub md5 {
	open(my $fh, '<', $_[0]) or die "$_[0]: $!\n";
	binmode $fh;
	return Digest::MD5->new->addfile($fh)->hexdigest;
}

sub xattrs {
	my $p = shift;
	open(my $fh, '-|', 'getfattr', '--absolute-names', '-h', '-d', '-m', '-', '-e', 'hex',
	     '--', $p) or die "getfattr: $!\n";
	my @a = grep { !/^#/ && /\S/ } <$fh>;
	close $fh;
	chomp @a;
	return join(',', sort @a) || '-';
}

for my $p (sort keys %st) {
	my @s = @{$st{$p}};
	my $mode = $s[2];
	lstat($p);
	my $type = -l _ ? 'l' : -d _ ? 'd' : -f _ ? 'f' : -p _ ? 'p' : -c _ ? 'c' : -b _ ? 'b' : -S _ ? 's' : '?';
	my $mtime = $o{n} ? sprintf("%.9f", $s[9]) : int($s[9]);
	$mtime = 'new' if defined $o{t} && $s[9] >= $o{t};
	$mtime = '-' if ($o{R} && $p eq '.') || ($o{D} && -d _);
	my $size = $type eq 'd' ? '-' : $s[7];
	my $sum = $type eq 'f' ? md5($p) : '-';
	my $target = $type eq 'l' ? esc(readlink($p)) : '-';
	my $dev = ($type eq 'c' || $type eq 'b') ? sprintf("%d,%d", $s[6] >> 8, $s[6] & 0xff) : '-';
	my $grp = $type eq 'd' ? '-' : esc($group{"$s[0]:$s[1]"});
	my $own = $o{o} ? '-' : "$s[4] $s[5]";
	my $xa = (!$o{x} && $p =~ m{(^|/)xattr[^/]*$}) ? xattrs($p) : '-';
	my $sparse = ($o{s} && $type eq 'f') ? ($s[12] * 512 < $s[7] ? 'sparse' : 'dense') : '-';
	printf "%s %s %04o %s %s %s %s %s %s %s %s %s\n", esc($p), $type, $mode & 07777, $own,
	       $mtime, $size, $sum, $target, $dev, $grp, $xa, $sparse;
}
