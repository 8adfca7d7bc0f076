# Study 000's seed data, run once by assemble.sh with rails runner after Redmine's migrations and default data:
# the admin's password (no change asked at the first login), the REST API on, and one project with every tracker.
admin = User.find_by_login('admin')
admin.password = admin.password_confirmation = ENV.fetch('REDMINE_ADMIN_PASSWORD')
admin.must_change_passwd = false
admin.save!
Setting.rest_api_enabled = '1'
project = Project.new(name: 'EnvBench', identifier: 'envbench', is_public: true)
project.enabled_module_names = %w[issue_tracking]
project.trackers = Tracker.all
project.save!
puts "envbench seed: admin, project #{project.identifier} (#{project.trackers.count} trackers), REST API on"
# One account per JMeter thread (envbench-user-1 .. -50, password envbench-user), each a Developer of the project:
# Redmine keeps at most 10 sessions per user (Token's max_instances: 10), so 20 threads logging in as one account
# end each other's sessions (a 302 back to the login page on the next request).
developer = Role.find_by_name('Developer') || Role.givable.first
(1..50).each do |n|
  user = User.new(firstname: 'EnvBench', lastname: "User #{n}", mail: "envbench-user-#{n}@example.invalid")
  user.login = "envbench-user-#{n}"
  user.password = user.password_confirmation = 'envbench-user'
  user.must_change_passwd = false
  user.save!
  Member.create!(project: project, principal: user, roles: [developer])
end
puts "envbench seed: 50 users envbench-user-N, each a #{developer.name} of #{project.identifier}"
